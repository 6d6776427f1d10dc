import { NestFactory } from '@nestjs/core';
import { BusServer, createTransport, OutboxRelay, busConfigFromEnv } from '@pay/bus';
import { ConsumerGroup } from '@pay/contracts';
import { assertDatabaseReachable, createPgPool, createPrismaClient, OutboxListener, PgOutboxStore } from '@pay/persistence';
import { createLogger, createMetricsRegistry, startOpsServer } from '@pay/platform';
import type { LedgerConfig } from './ledger.config';
import { LedgerModule } from './ledger.module';

/**
 * The ledger process: consumes ledger.commands through the bus, applies each in one Postgres
 * transaction, and relays its outbox to ledger.events. Returns a handle to stop it cleanly.
 */
export async function startLedger(config: LedgerConfig, opts: { consumerName?: string } = {}) {
  const logger = createLogger('ledger', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  // The command path (apply, relay) runs on plain pg; Prisma serves the rest (docs/decisions/0011).
  const pool = createPgPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  const transport = createTransport(busConfigFromEnv(config), { logger });

  const app = await NestFactory.createMicroservice(LedgerModule.register({ pool, logger }), {
    strategy: new BusServer({ transport, group: ConsumerGroup.Ledger, consumerName: opts.consumerName }),
    logger: false,
    abortOnError: false,
  });
  const relay = new OutboxRelay({
    store: new PgOutboxStore(pool),
    transport,
    batchSize: config.OUTBOX_BATCH_SIZE,
    pollIntervalMs: config.OUTBOX_POLL_MS,
    logger,
  });
  let stopping = false;
  const ops = await startOpsServer({
    port: config.OPS_PORT,
    registry: createMetricsRegistry('ledger'),
    isShuttingDown: () => stopping,
    checks: [{ name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) }],
  });
  await app.listen();
  relay.start();
  const listener = new OutboxListener(config.DATABASE_URL, () => relay.notify(), (err) => logger.warn({ err: String(err) }, 'outbox listener lost its connection; reconnecting'));
  await listener.start();
  logger.info({ opsPort: config.OPS_PORT, transport: config.BUS_TRANSPORT }, 'ledger started');

  return {
    opsPort: (ops.address() as { port: number }).port,
    stop: async () => {
      stopping = true;
      await app.close();
      await listener.stop();
      await relay.stop();
      await transport.close();
      await new Promise<void>((resolve) => ops.close(() => resolve()));
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
