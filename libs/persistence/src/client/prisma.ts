import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { errorText, type Logger, waitForDependency } from '@pay/platform';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { PRIMARY_ONLY } from './primary-only';
import { defaultConnectionErrorLog, guardPool, KEEPALIVE_IDLE_MS, UNANSWERED_QUERY_GRACE_MS } from './sql';

export { Prisma, PrismaClient };
export type TransactionClient = Prisma.TransactionClient;

/**
 * The Prisma 7 client on the node-postgres driver adapter (no native query engine at run time).
 * Its pool reconnects lazily like any pg pool; a dropped connection, idle or inside a
 * transaction, is reported to `onError` (guardPool) instead of going unheard. Connecting waits
 * at most 5 s; a statement at most `statementTimeoutMs` when given. Its connections are to the
 * primary only (PRIMARY_ONLY).
 */
export function createPrismaClient(
  databaseUrl: string,
  poolSize = 10,
  onError: (err: unknown) => void = defaultConnectionErrorLog(),
  statementTimeoutMs?: number,
): PrismaClient {
  // The pool is ours, guarded as the pg pools are (every connection's errors heard once, idle
  // connections tracked for a failover); the adapter ends it on $disconnect.
  const pool = guardPool(
    new pg.Pool({
      connectionString: databaseUrl,
      max: poolSize,
      connectionTimeoutMillis: 5000,
      statement_timeout: statementTimeoutMs,
      // As createPgPool's: the wait for an answer is bounded too, when the statement's is.
      query_timeout: statementTimeoutMs === undefined ? undefined : statementTimeoutMs + UNANSWERED_QUERY_GRACE_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
      ...PRIMARY_ONLY,
    }),
    onError,
  );
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  urls.set(client, databaseUrl);
  return client;
}

const urls = new WeakMap<PrismaClient, string>();

/** The database a client made by createPrismaClient talks to (for tools that need a plain pg pool beside it). */
export function databaseUrlOf(prisma: PrismaClient): string {
  const url = urls.get(prisma);
  if (!url) throw new Error('not a client made by createPrismaClient');
  return url;
}

/** True when `err` is a unique-constraint violation (Prisma P2002 or Postgres 23505), optionally on `target`. */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError) return err.code === 'P2002';
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** The database's URL without its password, for messages. */
function redacted(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = url.password ? '***' : '';
    return url.toString();
  } catch {
    return '(not a valid URL)';
  }
}

/** One line an operator can act on: the server's own words (Prisma's messages run over several lines). */
export function describeDatabaseError(err: unknown, databaseUrl: string): string {
  const adapter = (
    err as {
      meta?: {
        driverAdapterError?: { cause?: { originalMessage?: string; kind?: string; host?: string; port?: number } };
      };
    }
  )?.meta?.driverAdapterError?.cause;
  let cause =
    adapter?.originalMessage ??
    (adapter?.kind === 'DatabaseNotReachable'
      ? `can't reach database server at ${adapter.host}:${adapter.port}`
      : adapter?.kind);
  cause ??=
    err instanceof Error
      ? (err.message
          .split('\n')
          .filter((l) => l.trim())
          .pop() ?? err.message)
      : errorText(err);
  return `cannot use the database at DATABASE_URL=${redacted(databaseUrl)}: ${cause.trim()}`;
}

/**
 * Start-up: waits (with a warn line per attempt) until the database answers, so a service
 * started during a failover does not crash-loop; a refused login or a missing database fails
 * at once with a one-line message naming DATABASE_URL (without its password).
 */
export function waitForDatabase(prisma: PrismaClient, databaseUrl: string, logger: Logger): Promise<void> {
  return waitForDependency('postgres', () => prisma.$queryRaw`SELECT 1`, {
    logger,
    describe: (err) => describeDatabaseError(err, databaseUrl),
  });
}
