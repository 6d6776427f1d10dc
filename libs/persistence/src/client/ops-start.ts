import type { Server } from 'node:http';
import {
  type Logger,
  type OpsConfig,
  type ReadinessCheck,
  redisReadinessCheck,
  startOpsServer,
  waitForRedis,
} from '@pay/platform';
import type { Registry } from 'prom-client';
import type { DatabaseConfig } from './database.config';
import { type PrismaClient, waitForDatabase } from './prisma';

export interface OpsStartOptions {
  prisma: PrismaClient;
  /** The service's metrics (createMetricsRegistry), served on /metrics */
  registry: Registry;
  /** The Redis the service needs (the bus on Redis Streams, BullMQ); absent: none */
  redisUrl?: string;
  /** More readiness checks (e.g. object storage) */
  checks?: ReadinessCheck[];
  logger: Logger;
}

export interface OpsHandle {
  server: Server;
  /** /readyz answers 503 from now on (the first step of a clean stop) */
  shuttingDown(): void;
  close(): Promise<void>;
}

/**
 * The start of a service without a public HTTP API (ledger, payout, workers): the ops server
 * first, so /healthz answers while the dependencies are waited for (the liveness probe does
 * not restart a pod that starts during a failover) and /readyz says which one is missing;
 * then PostgreSQL and Redis are waited for (a wrong setting fails at once). `close` stops the
 * ops server and its Redis check connection.
 */
export async function startOpsAndWait(
  service: string,
  config: { ops: OpsConfig; database: Pick<DatabaseConfig, 'url'> },
  opts: OpsStartOptions,
): Promise<OpsHandle> {
  const redis = opts.redisUrl ? redisReadinessCheck(opts.redisUrl, opts.logger, `${service}:readiness`) : undefined;
  let stopping = false;
  const server = await startOpsServer({
    port: config.ops.port,
    host: config.ops.host,
    registry: opts.registry,
    isShuttingDown: () => stopping,
    checks: [
      { name: 'postgres', check: async () => void (await opts.prisma.$queryRaw`SELECT 1`) },
      ...(redis ? [redis] : []),
      ...(opts.checks ?? []),
    ],
  });
  const close = async () => {
    redis?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    await waitForDatabase(opts.prisma, config.database.url, opts.logger);
    if (opts.redisUrl) await waitForRedis(opts.redisUrl, opts.logger);
  } catch (err) {
    await close();
    throw err;
  }
  return { server, close, shuttingDown: () => void (stopping = true) };
}
