import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { Client } from 'pg';
import { PgListener } from './pg-listener';
import { createPgPool, inTransaction, sqlClient } from './sql';
import { until } from '../testing/until';

/**
 * A TCP relay to the real Postgres that can go silent: frozen, it forwards nothing either way and
 * closes nothing, as a failed-over primary whose packets are dropped. Thawed, the connections it
 * froze are cut (that server is gone) and new ones reach the database again.
 */
class SilentRelay {
  private readonly frozen = new Set<Socket>();
  private readonly onFreeze: (() => void)[] = [];
  private silent = false;
  private readonly server: Server;
  url = '';

  private constructor(private readonly target: URL) {
    this.server = createServer((client) => this.relay(client));
  }

  static async start(databaseUrl: string): Promise<SilentRelay> {
    const relay = new SilentRelay(new URL(databaseUrl));
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String((relay.server.address() as { port: number }).port);
    relay.url = url.toString();
    return relay;
  }

  private relay(client: Socket): void {
    if (this.silent) return void this.frozen.add(client);
    const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
    client.pipe(upstream).pipe(client);
    this.onFreeze.push(() => {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      this.frozen.add(client).add(upstream);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  }

  freeze(): void {
    this.silent = true;
    for (const silence of this.onFreeze.splice(0)) silence();
  }

  thaw(): void {
    this.silent = false;
    for (const socket of this.frozen) socket.destroy();
    this.frozen.clear();
  }

  async stop(): Promise<void> {
    this.thaw();
    await new Promise((resolve) => this.server.close(resolve));
  }
}


describe('a database that goes silent (packets dropped, nothing closed)', () => {
  let relay: SilentRelay;
  let admin: Client;
  beforeEach(async () => {
    relay = await SilentRelay.start(process.env.DATABASE_URL as string);
  });
  afterEach(() => relay.stop());
  beforeAll(async () => {
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it('a LISTEN connection notices by its heartbeat, says so, and listens again once the database answers', async () => {
    const channel = `spec_${randomBytes(4).toString('hex')}`;
    const heard: string[] = [];
    const errors: unknown[] = [];
    const listener = new PgListener(relay.url, { onError: (e) => errors.push(e), heartbeatMs: 200, heartbeatTimeoutMs: 300 }).listen({ channel, onNotify: (p) => heard.push(p) });
    await listener.start();
    try {
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'before']);
      await until(() => heard.includes('before'));
      relay.freeze();
      // Without the heartbeat it stays "listening" (and deaf) until TCP gives up, hours later.
      await until(() => !listener.listening, 3000);
      expect(String(errors[0])).toContain("no answer to the LISTEN connection's heartbeat within 300 ms");
      relay.thaw();
      await until(() => listener.listening);
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'after']);
      await until(() => heard.includes('after'));
    } finally {
      await listener.stop();
    }
  });

  it('stopping a LISTEN connection does not wait for a server that never closes it (a shutdown during the failover)', async () => {
    const listener = new PgListener(relay.url, { heartbeatMs: 1e9 }).listen({ channel: 'spec_silent_stop', onNotify: () => undefined });
    await listener.start();
    expect(listener.listening).toBe(true);
    relay.freeze();
    const started = Date.now();
    await listener.stop();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a pooled query gives up after query_timeout, the connection is discarded, and the next query gets a new one', async () => {
    const pool = createPgPool(relay.url, 2, { statement_timeout: 1000, query_timeout: 1500, onError: () => undefined });
    try {
      const pidOf = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const before = await pidOf();
      relay.freeze();
      const started = Date.now();
      await expect(sqlClient(pool).query({ text: 'SELECT 1', values: [] })).rejects.toThrow('Query read timeout');
      await expect(inTransaction(pool, (tx) => tx.query({ text: 'SELECT 1', values: [] }))).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000);
      relay.thaw();
      const after = await pidOf();
      expect(after).not.toBe(before);
      expect(pool.totalCount).toBeLessThanOrEqual(2);
    } finally {
      await pool.end();
    }
  });
});
