import { randomBytes } from 'node:crypto';
import { createPgPool, inTransaction, PgListener, sqlClient } from '@pay/persistence';
import { Client } from 'pg';
import { waitFor } from '@pay/testing';
import { SilentRelay } from './silent-relay';

// The persistence library's connections when the database goes silent (decision 0015). They live
// here, beside the relay they need, because the persistence library's tests may not use the testing library.

/** Waits until `check` holds; fails the test after `ms`. */
const until = (check: () => boolean | Promise<boolean>, ms = 10_000) =>
  waitFor(async () => check(), ms, 'condition', 50);

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
    const listener = new PgListener(relay.url, {
      onError: (e) => errors.push(e),
      heartbeatMs: 200,
      heartbeatTimeoutMs: 300,
    }).listen({ channel, onNotify: (p) => heard.push(p) });
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
    const listener = new PgListener(relay.url, { heartbeatMs: 1e9 }).listen({
      channel: 'spec_silent_stop',
      onNotify: () => undefined,
    });
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
