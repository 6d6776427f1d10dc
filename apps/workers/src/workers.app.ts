import { assertDatabaseReachable, createPrismaClient } from '@pay/persistence';
import { createLogger, createMetricsRegistry, startOpsServer } from '@pay/platform';
import Redis from 'ioredis';
import type { WorkersConfig } from './workers.config';

/**
 * The BullMQ workers process (no HTTP API). Its queues (webhook delivery, recon export,
 * settlement schedule) arrive with issues #4-#6; this foundation starts it with its
 * database and Redis connections and ops endpoints.
 */
export async function startWorkers(config: WorkersConfig) {
  const logger = createLogger('workers', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  // BullMQ workers need maxRetriesPerRequest: null on their connection.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: true });
  await redis.connect();
  let stopping = false;
  const ops = await startOpsServer({
    port: config.OPS_PORT,
    registry: createMetricsRegistry('workers'),
    isShuttingDown: () => stopping,
    checks: [
      { name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) },
      { name: 'redis', check: async () => void (await redis.ping()) },
    ],
  });
  logger.info({ opsPort: config.OPS_PORT }, 'workers started');
  return {
    stop: async () => {
      stopping = true;
      await new Promise<void>((resolve) => ops.close(() => resolve()));
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
