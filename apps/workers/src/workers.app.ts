import { NestFactory } from '@nestjs/core';
import { busConfigFromEnv, BusServer, createTransport } from '@pay/bus';
import { ConsumerGroup } from '@pay/contracts';
import { assertDatabaseReachable, createPgPool, createPrismaClient, ReconExportRepository, SettlementPlanner, WebhookDeliveryRepository } from '@pay/persistence';
import { createLogger, createMetricsRegistry, ObjectStore, startOpsServer } from '@pay/platform';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { ReconExportQueue } from './recon/recon-export.queue';
import { SettlementQueue } from './settlement/settlement.queue';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service';
import { WebhookQueue } from './webhooks/webhook.queue';
import type { WorkersConfig } from './workers.config';
import { WorkersModule } from './workers.module';

/**
 * The BullMQ workers process (no public HTTP API): delivers each final disbursement status
 * (from payout.events) to the merchant's notifyUrl, signed and retried, and runs the
 * settlement schedule and the recon CSV exports.
 */
export async function startWorkers(config: WorkersConfig) {
  const logger = createLogger('workers', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  // Plain pg for the per-delivery work (docs/decisions/0010); Prisma for settlements and recon.
  const pool = createPgPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  // BullMQ workers need maxRetriesPerRequest: null on their connection.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: true });
  await redis.connect();

  const deliveries = new WebhookDeliveryRepository(pool);
  const service = new WebhookDeliveryService(deliveries, logger, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    leaseGraceMs: config.WEBHOOK_LEASE_GRACE_MS,
  });
  const queue = new WebhookQueue(service, deliveries, logger, {
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    dispatchIntervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS,
  });
  const settlements = new SettlementQueue(new SettlementPlanner(prisma), logger, {
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    scanIntervalMs: config.SETTLEMENT_SCAN_INTERVAL_MS,
  });
  // Recon exports stream rows through a server-side cursor: plain pg connections, apart from Prisma's pool.
  const streamingPool = new Pool({ connectionString: config.DATABASE_URL, max: 4 });
  const store = new ObjectStore(config);
  const recon = new ReconExportQueue(new ReconExportRepository(prisma), streamingPool, store, logger, { connection: redis, prefix: config.QUEUE_PREFIX });
  const transport = createTransport(busConfigFromEnv(config), { logger });
  const app = await NestFactory.createMicroservice(WorkersModule.register({ service, queue }), {
    strategy: new BusServer({ transport, group: ConsumerGroup.Workers }),
    logger: false,
    abortOnError: false,
  });

  let stopping = false;
  const ops = await startOpsServer({
    port: config.OPS_PORT,
    registry: createMetricsRegistry('workers'),
    isShuttingDown: () => stopping,
    checks: [
      { name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) },
      { name: 'redis', check: async () => void (await redis.ping()) },
      { name: 'object-store', check: async () => void (await store.client.bucketExists(store.bucket)) },
    ],
  });
  queue.start();
  await settlements.start();
  await recon.start();
  await app.listen();
  logger.info({ opsPort: config.OPS_PORT }, 'workers started');
  return {
    stop: async () => {
      stopping = true;
      await app.close();
      await queue.stop();
      await settlements.stop();
      await recon.stop();
      await streamingPool.end();
      await transport.close();
      await new Promise<void>((resolve) => ops.close(() => resolve()));
      redis.disconnect();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
