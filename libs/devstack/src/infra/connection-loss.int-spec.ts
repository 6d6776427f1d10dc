import { randomBytes } from 'node:crypto';
import { createPgPool, createPrismaClient, dropDatabase, ensureDatabase, PgListener } from '@pay/persistence';
import { Client } from 'pg';
import { waitFor } from '@pay/testing';
import { PrivatePostgres } from './private-postgres';

// The persistence library's connections under real failures. They live here, beside the
// private server they need, because the persistence library's tests may not use the testing library.

/** Waits until `check` holds; fails the test after 10 s. */
const until = (check: () => boolean | Promise<boolean>) => waitFor(async () => check(), 10_000);

/**
 * Connections killed under a pool (pg_terminate_backend, as a failover or an operator does):
 * no 'error' may go unheard (Jest fails the test on an uncaught exception, as Node would kill a
 * service), the handler hears it, and the next query simply works on a new connection. Runs on a
 * database of its own, so only this file's connections are terminated.
 */
describe('connections killed under a pool (real Postgres, pg_terminate_backend)', () => {
  let url: string;
  let admin: Client;
  const terminateAll = async () =>
    (
      await admin.query<{ pid: number }>(
        'SELECT pg_terminate_backend(pid) AS ok, pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows.length;

  beforeAll(async () => {
    const server = new URL(process.env.DATABASE_URL as string);
    server.pathname = `/pay_connloss_${randomBytes(4).toString('hex')}`;
    url = server.toString();
    await ensureDatabase(url);
    admin = new Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await dropDatabase(url);
  });

  it('pg pool: idle connections killed -> heard, and the next query succeeds', async () => {
    const errors: unknown[] = [];
    const pool = createPgPool(url, 3, { onError: (err) => errors.push(err) });
    try {
      await Promise.all([1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)')));
      expect(pool.idleCount).toBe(3);
      expect(await terminateAll()).toBe(3);
      await until(() => errors.length >= 3);
      expect(String(errors[0])).toMatch(/terminating connection due to administrator command/);
      expect((await pool.query('SELECT 41 + 1 AS v')).rows).toEqual([{ v: 42 }]);
    } finally {
      await pool.end();
    }
  });

  it('pg pool: a checked-out connection killed between queries -> heard, its holder gets an error, the pool goes on', async () => {
    const errors: unknown[] = [];
    const pool = createPgPool(url, 2, { onError: (err) => errors.push(err) });
    try {
      const held = await pool.connect();
      await held.query('SELECT 1');
      await terminateAll();
      await until(() => errors.length >= 1);
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release(true);
      expect((await pool.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it("Prisma's pool: killed connections are reported to onError, and the next query succeeds", async () => {
    const errors: unknown[] = [];
    const prisma = createPrismaClient(url, 2, (err) => errors.push(err));
    try {
      expect(await prisma.$queryRaw`SELECT 1 AS v`).toEqual([{ v: 1 }]);
      expect(await terminateAll()).toBeGreaterThanOrEqual(1);
      await until(() => errors.length >= 1);
      expect(await prisma.$queryRaw`SELECT 2 AS v`).toEqual([{ v: 2 }]);
    } finally {
      await prisma.$disconnect();
    }
  });
});

describe('PgListener through a PostgreSQL outage (private server, stopped and started again)', () => {
  let pg: PrivatePostgres;
  const channel = 'spec_outage';
  const notify = async (payload: string) => {
    const c = new Client({ connectionString: pg.url() });
    await c.connect();
    await c.query('SELECT pg_notify($1, $2)', [channel, payload]);
    await c.end();
  };

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
  });
  afterAll(() => pg.destroy());

  it('retries while the server is down, LISTENs again when it is back, calls onReconnect, and hears again', async () => {
    const heard: string[] = [];
    const errors: unknown[] = [];
    let reconnects = 0;
    const listener = new PgListener(pg.url(), { onError: (e) => errors.push(e) }).listen({
      channel,
      onNotify: (p) => heard.push(p),
      onReconnect: () => (reconnects += 1),
    });
    await listener.start();
    try {
      await notify('before');
      await until(() => heard.includes('before'));
      await pg.stop();
      await new Promise((r) => setTimeout(r, 2500)); // several failed attempts while it is away
      expect(errors.length).toBeGreaterThanOrEqual(2);
      await pg.start();
      await until(() => reconnects === 1);
      await notify('after the outage');
      await until(() => heard.includes('after the outage'));
    } finally {
      await listener.stop();
    }
  });

  it('started while the server is down: start() resolves, and it listens once the server is up', async () => {
    await pg.stop();
    const heard: string[] = [];
    let reconnects = 0;
    const listener = new PgListener(pg.url()).listen({
      channel,
      onNotify: (p) => heard.push(p),
      onReconnect: () => (reconnects += 1),
    });
    try {
      await listener.start();
      await pg.start();
      await until(() => reconnects === 1);
      await notify('first');
      await until(() => heard.includes('first'));
    } finally {
      await listener.stop();
    }
  });
});
