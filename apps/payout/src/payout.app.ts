import { NestFactory } from '@nestjs/core';
import { createBankRail } from '@pay/bank-rail';
import { busConfigFromEnv, BusServer, createTransport, OutboxRelay } from '@pay/bus';
import { ConsumerGroup } from '@pay/contracts';
import { assertDatabaseReachable, createPgPool, createPrismaClient, PayoutRepository, OutboxListener, PgOutboxStore } from '@pay/persistence';
import { createLogger, createMetricsRegistry, startOpsServer } from '@pay/platform';
import type { PayoutConfig } from './payout.config';
import { PayoutModule } from './payout.module';
import { PayoutPoller } from './processing/payout.poller';
import { PayoutProcessor } from './processing/payout.processor';

/**
 * The payout process: takes debited disbursements to the bank rail and records their final
 * status (with the refund command on failure and the outcome event) through the outbox.
 * It also runs an outbox relay; the advisory lock lets one relay at a time publish.
 */
export async function startPayout(config: PayoutConfig) {
  const logger = createLogger('payout', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  // Plain pg for the per-transfer work, the payout poll and the relay (docs/decisions/0011); Prisma only checks the database.
  const pool = createPgPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  const transport = createTransport(busConfigFromEnv(config), { logger });
  const processor = new PayoutProcessor(new PayoutRepository(pool), createBankRail(config, pool), logger, {
    batchSize: config.PAYOUT_BATCH_SIZE,
    leaseMs: config.PAYOUT_LEASE_MS,
    timeoutRetryMs: config.PAYOUT_TIMEOUT_RETRY_MS,
  });
  const poller = new PayoutPoller(processor, logger, config.PAYOUT_POLL_INTERVAL_MS);
  const app = await NestFactory.createMicroservice(PayoutModule.register({ poller }), {
    strategy: new BusServer({ transport, group: ConsumerGroup.Payout }),
    logger: false,
    abortOnError: false,
  });
  const relay = new OutboxRelay({ store: new PgOutboxStore(pool), transport, batchSize: config.OUTBOX_BATCH_SIZE, pollIntervalMs: config.OUTBOX_POLL_MS, logger });
  let stopping = false;
  const ops = await startOpsServer({
    port: config.OPS_PORT,
    registry: createMetricsRegistry('payout'),
    isShuttingDown: () => stopping,
    checks: [{ name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) }],
  });
  await app.listen();
  poller.start();
  relay.start();
  const listener = new OutboxListener(config.DATABASE_URL, () => relay.notify(), (err) => logger.warn({ err: String(err) }, 'outbox listener lost its connection; reconnecting'));
  await listener.start();
  logger.info({ opsPort: config.OPS_PORT }, 'payout started');
  return {
    stop: async () => {
      stopping = true;
      await app.close();
      await poller.stop();
      await listener.stop();
      await relay.stop();
      await transport.close();
      await new Promise<void>((resolve) => ops.close(() => resolve()));
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
