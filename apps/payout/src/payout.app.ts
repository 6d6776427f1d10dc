import { busConfigFromEnv, createTransport } from '@pay/bus';
import { assertDatabaseReachable, createPrismaClient } from '@pay/persistence';
import { createLogger, createMetricsRegistry, startOpsServer } from '@pay/platform';
import type { PayoutConfig } from './payout.config';

/**
 * The payout process. It owns the bank-rail adapter and drives disbursements
 * pending -> success | failed (issue #3); this foundation starts the process with its
 * database, bus transport and ops endpoints so it deploys and is probed like the others.
 */
export async function startPayout(config: PayoutConfig) {
  const logger = createLogger('payout', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  const transport = createTransport(busConfigFromEnv(config), { logger });
  let stopping = false;
  const ops = await startOpsServer({
    port: config.OPS_PORT,
    registry: createMetricsRegistry('payout'),
    isShuttingDown: () => stopping,
    checks: [{ name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) }],
  });
  logger.info({ opsPort: config.OPS_PORT }, 'payout started');
  return {
    stop: async () => {
      stopping = true;
      await transport.close();
      await new Promise<void>((resolve) => ops.close(() => resolve()));
      await prisma.$disconnect();
    },
  };
}
