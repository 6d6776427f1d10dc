import type { Pool } from 'pg';
import { type Logger, throttledWarn } from '@pay/platform';
import { createPrismaClient, type PrismaClient } from './prisma';
import type { DatabaseConfig } from './database.config';
import { createPgPool, STATEMENT_TIMEOUT_MS, UNANSWERED_QUERY_GRACE_MS } from './sql';

/**
 * A service's two pools on one database: plain pg for the hot paths, Prisma for the rest
 * (docs/decisions/0011). Both reconnect lazily: during an outage a query fails fast
 * (connection refused, or the 5 s connect timeout) and the first one after it connects anew;
 * a dropped connection is a throttled warn line, never an unhandled 'error'. A statement runs
 * at most 30 s (STATEMENT_TIMEOUT_MS), so no request waits on a stuck query; and its answer is
 * waited for at most 5 s more, so none waits on a server that vanished without closing the
 * connection (the connection is then discarded).
 */
export function createDatabaseClients(database: DatabaseConfig, logger: Logger): { prisma: PrismaClient; pool: Pool } {
  const prisma = createPrismaClient(
    database.url,
    database.poolSize,
    throttledWarn(logger, 'postgres (prisma pool): connection error (reconnecting)'),
    STATEMENT_TIMEOUT_MS,
  );
  const pool = createPgPool(database.url, database.poolSize, {
    preparedStatements: database.preparedStatements,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + UNANSWERED_QUERY_GRACE_MS,
    onError: throttledWarn(logger, 'postgres (pg pool): connection error (reconnecting)'),
  });
  return { prisma, pool };
}
