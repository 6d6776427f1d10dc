import { randomBytes } from 'node:crypto';
import { pgListenMetric } from '@pay/platform';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import { PgListener } from './pg-listener';
import { until } from '../testing/until';

describe('PgListener (real Postgres LISTEN/NOTIFY)', () => {
  // A channel per test: a backend of an earlier test's listener can linger in pg_stat_activity.
  let channel = '';
  beforeEach(() => {
    channel = `spec_${randomBytes(4).toString('hex')}`;
  });
  let admin: Client;
  const notify = (payload: string) => admin.query('SELECT pg_notify($1, $2)', [channel, payload]);
  const listenerBackends = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
        [`LISTEN ${channel}`],
      )
    ).rows.map((r) => r.pid);

  beforeAll(async () => {
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it('hears notifications on its channel only, with their payload', async () => {
    const heard: string[] = [];
    const listener = new PgListener(process.env.DATABASE_URL as string).listen({
      channel,
      onNotify: (p) => heard.push(p),
    });
    await listener.start();
    try {
      await admin.query(`SELECT pg_notify('${channel}_other', 'not for us')`);
      await notify('one');
      await until(() => heard.length > 0);
      expect(heard).toEqual(['one']);
    } finally {
      await listener.stop();
    }
  });

  it('reports a lost connection, reconnects by itself and hears again (what was sent meanwhile is lost)', async () => {
    const heard: string[] = [];
    const errors: unknown[] = [];
    const listener = new PgListener(process.env.DATABASE_URL as string, { onError: (err) => errors.push(err) }).listen({
      channel,
      onNotify: (p) => heard.push(p),
    });
    await listener.start();
    try {
      const [pid] = await listenerBackends();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await until(() => errors.length > 0);
      // `listening` turns true once the new LISTEN has committed: a NOTIFY sent between the LISTEN
      // showing in pg_stat_activity and its commit would be missed (what failed CI once).
      await until(() => listener.listening);
      const backends = await listenerBackends();
      expect(backends).toHaveLength(1);
      expect(backends[0]).not.toBe(pid);
      await notify('after the outage');
      await until(() => heard.includes('after the outage'));
    } finally {
      await listener.stop();
    }
  });

  it('LISTENs on every channel added over one connection, each channel heard by its own users, and all told after a reconnect', async () => {
    const other = `${channel}_b`;
    const heard: string[] = [];
    const reconnects: string[] = [];
    const listener = new PgListener(process.env.DATABASE_URL as string)
      .listen({ channel, onNotify: (p) => heard.push(`a1:${p}`), onReconnect: () => reconnects.push('a1') })
      .listen({ channel, onNotify: (p) => heard.push(`a2:${p}`) })
      .listen({ channel: other, onNotify: (p) => heard.push(`b:${p}`), onReconnect: () => reconnects.push('b') });
    await listener.start();
    try {
      const backends = (
        await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
          [`LISTEN ${channel}; LISTEN ${other}`],
        )
      ).rows;
      expect(backends).toHaveLength(1);
      await notify('one');
      await admin.query('SELECT pg_notify($1, $2)', [other, 'two']);
      await until(() => heard.length === 3);
      expect(heard).toEqual(['a1:one', 'a2:one', 'b:two']);

      await admin.query('SELECT pg_terminate_backend($1)', [backends[0].pid]);
      await until(() => reconnects.length === 2);
      expect(reconnects).toEqual(['a1', 'b']);
      await until(() => listener.listening);
      await admin.query('SELECT pg_notify($1, $2)', [other, 'three']);
      await until(() => heard.includes('b:three'));
    } finally {
      await listener.stop();
    }
  });

  it('adds no channel once started, and with none to listen on makes no connection', async () => {
    const idle = new PgListener(process.env.DATABASE_URL as string);
    await idle.start();
    expect(idle.listening).toBe(false);
    expect(() => idle.listen({ channel, onNotify: () => undefined })).toThrow(
      `channel ${channel} added to a started PgListener`,
    );
    await idle.stop();
  });

  it('pg_listen_up reads 1 while the LISTEN is in place, 0 before start, while reconnecting and after stop', async () => {
    const registry = new Registry();
    const listener = new PgListener(process.env.DATABASE_URL as string).listen({ channel, onNotify: () => undefined });
    pgListenMetric(registry, listener);
    const up = async () => (await registry.getSingleMetric('pg_listen_up')?.get())?.values[0]?.value;
    expect(await up()).toBe(0);
    await listener.start();
    try {
      expect(await up()).toBe(1);
      const [pid] = await listenerBackends();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The first retry waits 0.5 s: the gap is seen.
      await until(async () => (await up()) === 0);
      await until(async () => (await up()) === 1);
    } finally {
      await listener.stop();
    }
    expect(await up()).toBe(0);
  });

  it('refuses a channel name that is not a plain identifier', () => {
    expect(() =>
      new PgListener('postgresql://x/y').listen({ channel: 'a; DROP TABLE outbox', onNotify: () => undefined }),
    ).toThrow('invalid channel name');
  });
});
