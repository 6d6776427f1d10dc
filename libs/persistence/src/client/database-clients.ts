import type { Pool } from 'pg';
import { type Logger, throttledWarn } from '@pay/platform';
import { createPrismaClient, type PrismaClient } from './prisma';
import { createPgPool, STATEMENT_TIMEOUT_MS, UNANSWERED_QUERY_GRACE_MS } from './sql';

export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_PREPARED_STATEMENTS: boolean;
}

/**
 * A service's two pools on one database: plain pg for the hot paths, Prisma for the rest
 * (docs/decisions/0011). Both reconnect lazily: during an outage a query fails fast
 * (connection refused, or the 5 s connect timeout) and the first one after it connects anew;
 * a dropped connection is a throttled warn line, never an unhandled 'error'. A statement runs
 * at most 30 s (STATEMENT_TIMEOUT_MS), so no request waits on a stuck query; and its answer is
 * waited for at most 5 s more, so none waits on a server that vanished without closing the
 * connection (the connection is then discarded).
 */
export function createDatabaseClients(
  settings: DatabaseSettings,
  logger: Logger,
): { prisma: PrismaClient; pool: Pool } {
  const prisma = createPrismaClient(
    settings.DATABASE_URL,
    settings.DATABASE_POOL_SIZE,
    throttledWarn(logger, 'postgres (prisma pool): connection error (reconnecting)'),
    STATEMENT_TIMEOUT_MS,
  );
  const pool = createPgPool(settings.DATABASE_URL, settings.DATABASE_POOL_SIZE, {
    preparedStatements: settings.DATABASE_PREPARED_STATEMENTS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + UNANSWERED_QUERY_GRACE_MS,
    onError: throttledWarn(logger, 'postgres (pg pool): connection error (reconnecting)'),
  });
  return { prisma, pool };
}

/**
 * `databaseUrl` with `application_name` set to `name` (unless the URL sets one already), so
 * `pg_stat_activity`, `pg_stat_statements` and a server log with `%a` tell whose each
 * connection is. Every connection made from the URL carries it: both pools, and each LISTEN
 * connection with `:listen` after it (PgListener).
 */
export function withApplicationName(databaseUrl: string, name: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl; // not a URL this can name (the connection reports what is wrong with it)
  }
  if (!url.searchParams.has('application_name')) url.searchParams.set('application_name', name);
  return url.toString();
}

/** A service's settings, its DATABASE_URL naming its connections after it (withApplicationName). */
export function connectingAs<T extends { DATABASE_URL: string }>(settings: T, service: string): T {
  return { ...settings, DATABASE_URL: withApplicationName(settings.DATABASE_URL, service) };
}
