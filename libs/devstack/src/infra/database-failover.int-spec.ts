import {
  createPgPool,
  createPrismaClient,
  ensureDatabase,
  inTransaction,
  PgListener,
  type PrismaClient,
  sql,
} from '@pay/persistence';
import { classifyFault } from '@pay/platform';
import { Client, type Pool } from 'pg';
import { waitFor } from '@pay/testing';
import { PrivatePostgres } from './private-postgres';
import { SilentRelay } from './silent-relay';

/**
 * A database failover behind one address (decision 0015): a primary and a streaming standby of
 * the test's own, reached through a relay that stands for the DNS name or proxy. The failover
 * fences the old primary (read-only for every session, the open ones too), promotes the standby
 * and points the relay at it: new connections reach the new primary, the open ones stay on the
 * old server, as with a cached DNS answer or a proxy that does not cut sessions.
 *
 * Before, a pool's connections stayed on the fenced server: every write on them failed with 25006
 * and was retried on the same connections for as long as the pool was busy. Now a connection whose
 * server reported itself read-only is closed on release, and a new one to a read-only server is
 * refused, so writes find the new primary after at most one failure per pooled connection.
 */
describe('a database failover behind one address (primary, standby, relay of the test own)', () => {
  const DB = 'pay_failover';
  let primary: PrivatePostgres;
  let standby: PrivatePostgres;
  let relay: SilentRelay;
  /** The database through the relay, its connections named so the servers' pg_stat_activity tells them apart. */
  let url: string;

  beforeAll(async () => {
    primary = await PrivatePostgres.start();
    await ensureDatabase(primary.url(DB));
    const setup = new Client({ connectionString: primary.url(DB) });
    await setup.connect();
    await setup.query('CREATE TABLE probe (id bigserial PRIMARY KEY, note text NOT NULL)');
    await setup.end();
    standby = await primary.standby();
    relay = await SilentRelay.start(primary.url(DB));
    url = `${relay.url}?application_name=failover_spec`;
  }, 120_000);
  afterAll(async () => {
    await relay?.stop();
    await standby?.destroy();
    await primary?.destroy();
  });

  /** The rows of `text` run on `server`'s copy of the database, directly (not through the relay). */
  const rowsOn = async <T extends object>(server: PrivatePostgres, text: string): Promise<T[]> => {
    const admin = new Client({ connectionString: server.url(DB) });
    await admin.connect();
    try {
      return (await admin.query<T>(text)).rows;
    } finally {
      await admin.end();
    }
  };
  /** The server's sessions opened through the relay by this test's pools and listener. */
  const sessionsOn = async (server: PrivatePostgres) =>
    (
      await rowsOn<{ n: number }>(
        server,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'failover_spec%'`,
      )
    )[0].n;
  const notesOn = async (server: PrivatePostgres) =>
    (await rowsOn<{ note: string }>(server, 'SELECT note FROM probe ORDER BY id')).map((r) => r.note);
  /** `write` retried as the services retry a transient failure; the failures it met, each classified. */
  const untilWritten = async (write: () => Promise<unknown>) => {
    const failures: { kind: string; code?: string }[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      try {
        await write();
        return failures;
      } catch (err) {
        failures.push({ kind: classifyFault(err), code: codeOf(err) });
      }
    }
    throw new Error(`still failing after 12 attempts: ${JSON.stringify(failures)}`);
  };
  /** Each of the pool's `n` connections opened and left idle in it. */
  const warm = (pool: Pool, n: number) =>
    Promise.all(Array.from({ length: n }, () => pool.query('SELECT pg_sleep(0.05)')));

  it('a new connection to a standby is refused before use, transiently, and none is kept', async () => {
    const heard: unknown[] = [];
    const pool = createPgPool(`${standby.url(DB)}?application_name=failover_spec`, 2, {
      onError: (err) => heard.push(err),
    });
    const prisma = createPrismaClient(`${standby.url(DB)}?application_name=failover_spec`, 2, () => undefined);
    try {
      const refused = await pool.query('SELECT 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toMatchObject({ name: 'ReadOnlyServerError', code: '25006' });
      expect(classifyFault(refused)).toBe('transient');
      expect(pool.totalCount).toBe(0);
      // What the service's throttled warn line says: `postgres (pg pool): connection error (reconnecting)` and why.
      expect(heard).toEqual([refused]);
      const refusedByPrisma = await prisma.$queryRaw`SELECT 1`.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(classifyFault(refusedByPrisma)).toBe('transient');
      expect(await sessionsOn(standby)).toBe(0);
    } finally {
      await pool.end();
      await prisma.$disconnect();
    }
  });

  it('after the failover, at most one read answers from the old server; writes reach the new primary; no session stays on the old server', async () => {
    const POOL = 4;
    const dropped: unknown[] = [];
    const pool = createPgPool(url, POOL, { onError: (err) => dropped.push(err) });
    const prisma: PrismaClient = createPrismaClient(url, POOL, () => undefined);
    const heard: string[] = [];
    const listener = new PgListener(url, { heartbeatMs: 300 }).listen({
      channel: 'failover_spec',
      onNotify: (payload) => heard.push(payload),
    });
    try {
      await listener.start();
      await warm(pool, POOL);
      await Promise.all(
        Array.from({ length: POOL }, () =>
          prisma.$transaction(async (tx) => tx.$queryRaw`SELECT pg_sleep(0.05)::text`),
        ),
      );
      await inTransaction(pool, (tx) => tx.execute(sql`INSERT INTO probe (note) VALUES ('before')`));
      expect(await sessionsOn(primary)).toBe(2 * POOL + 1);

      await standby.caughtUpWith(primary);
      await primary.setReadOnly();
      await standby.promote();
      relay.redirect(standby.url(DB));
      // The new primary takes a write of its own: from now on, a read on the old server is stale.
      await rowsOn(standby, `INSERT INTO probe (note) VALUES ('direct')`);
      const seesDirect = async (read: () => Promise<{ n: number }[]>) => (await read())[0].n === 1;
      const pgRead = async () =>
        (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM probe WHERE note = 'direct'`)).rows;
      const prismaRead = () =>
        prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM probe WHERE note = 'direct'`;
      // The first statement on a connection to the old server answers from it (only then does the
      // server say it is read-only), unless the listener's heartbeat came first; every idle
      // connection to that address is closed with it, so no read after it, in either pool,
      // answers from the old server: at most one of these nine does.
      const first = await seesDirect(pgRead);
      const after = await Promise.all([
        ...Array.from({ length: POOL }, () => seesDirect(pgRead)),
        ...Array.from({ length: POOL }, () => seesDirect(prismaRead)),
      ]);
      expect([first, ...after].filter((fresh) => !fresh).length).toBeLessThanOrEqual(1);
      expect(after).toEqual(Array(2 * POOL).fill(true));

      // The ledger's and payout's way to write: a transaction on a pooled connection.
      const poolFailures = await untilWritten(() =>
        inTransaction(pool, (tx) => tx.execute(sql`INSERT INTO probe (note) VALUES ('pg pool')`)),
      );
      // Prisma's interactive transaction, as the gateway and the workers write.
      const prismaFailures = await untilWritten(() =>
        prisma.$transaction(async (tx) => tx.$executeRaw`INSERT INTO probe (note) VALUES ('prisma')`),
      );
      // Each connection closed for its read-only server was reported (the service logs it).
      expect(dropped.length).toBeGreaterThanOrEqual(POOL);
      expect(dropped.every((err) => (err as Error).name === 'ReadOnlyServerError')).toBe(true);
      for (const failures of [poolFailures, prismaFailures]) {
        expect(failures.length).toBeLessThanOrEqual(POOL);
        expect(failures.every((f) => f.kind === 'transient')).toBe(true);
      }
      // The old server has lost every write after the fence; the new primary has them all, once.
      expect(await notesOn(standby)).toEqual(['before', 'direct', 'pg pool', 'prisma']);
      expect(await notesOn(primary)).toEqual(['before']);

      // The listener leaves the fenced server at its next heartbeat and hears the new primary.
      await waitFor(async () => {
        await rowsOn(standby, `SELECT pg_notify('failover_spec', 'after')`);
        return heard.includes('after');
      }, 15_000);
      // Idle connections of the pools on the old server are closed as they are next used, or when idle.
      await warm(pool, POOL);
      await Promise.all(
        Array.from({ length: POOL }, () => prisma.$queryRaw`SELECT pg_sleep(0.05)::text`.catch(() => undefined)),
      );
      await waitFor(async () => (await sessionsOn(primary)) === 0, 20_000);
    } finally {
      await listener.stop();
      await pool.end();
      await prisma.$disconnect();
    }
  });
});

/** The SQLSTATE an error carries, directly or in a cause (Prisma wraps the driver's). */
function codeOf(err: unknown): string | undefined {
  for (
    let e = err as
        | { code?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }
        | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = e.meta?.driverAdapterError?.cause?.originalCode ?? e.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
