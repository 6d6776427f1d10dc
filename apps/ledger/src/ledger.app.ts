import { NestFactory } from '@nestjs/core';
import {
  BusErrorFilter,
  BusServer,
  createServiceTransport,
  OutboxRelay,
  busReadinessCheck,
  TopicReadiness,
  watchBusFailure,
  withDeadLetterTopics,
} from '@pay/bus';
import { ConsumerGroup, Topic } from '@pay/contracts';
import { createDatabaseClients, outboxChannel, PgListener, PgOutboxStore, startOpsAndWait } from '@pay/persistence';
import {
  createLogger,
  createMetricsRegistry,
  outboxBacklogMetric,
  pgListenMetric,
  serviceStop,
  throttledWarn,
} from '@pay/platform';
import type { LedgerConfig } from './ledger.config';
import { LedgerModule } from './ledger.module';

/**
 * The ledger process: consumes ledger.commands through the bus, applies each in one Postgres
 * transaction, and relays its outbox to ledger.events. Returns a handle to stop it cleanly.
 */
export async function startLedger(config: LedgerConfig, opts: { consumerName?: string } = {}) {
  const logger = createLogger('ledger', config.logging.level);
  // The command path (apply, relay) runs on plain pg; Prisma serves the rest (docs/decisions/0011).
  const { prisma, pool } = createDatabaseClients(config.database, logger);
  const bus = config.bus;
  const registry = createMetricsRegistry('ledger');
  const busFailure = watchBusFailure();
  const transport = createServiceTransport(bus, { logger, registry, onFailure: busFailure.onFailure });
  // It consumes ledger.commands; its relay publishes the commands and its own events at once, and any other topic at its safety-net poll.
  const topics = new TopicReadiness(transport, withDeadLetterTopics(Object.values(Topic)), { logger });
  topics.start();
  const ops = await startOpsAndWait('ledger', config, {
    prisma,
    registry,
    redisUrl: bus.kind === 'redis-streams' ? bus.redisUrl : undefined,
    logger,
    checks: [busReadinessCheck(transport), topics],
  });

  const app = await NestFactory.createMicroservice(LedgerModule.register({ pool, logger }), {
    strategy: new BusServer({ transport, group: ConsumerGroup.Ledger, consumerName: opts.consumerName }),
    logger: false,
    abortOnError: false,
  });
  app.useGlobalFilters(new BusErrorFilter());
  const outbox = new PgOutboxStore(pool);
  outboxBacklogMetric(registry, outbox, { topics: Object.values(Topic), logger });
  const relay = new OutboxRelay({
    store: outbox,
    transport,
    batchSize: config.outbox.batchSize,
    pollIntervalMs: config.outbox.pollIntervalMs,
    lingerMs: config.outbox.lingerMs,
    // Woken for its own input and output; every other topic only at its safety-net poll.
    wakeTopics: [Topic.LedgerCommands, Topic.LedgerEvents],
    logger,
  });
  await app.listen();
  relay.start();
  const listener = new PgListener(config.database.url, {
    onError: throttledWarn(
      logger,
      'LISTEN connection lost; reconnecting (the outbox relay waits for its poll meanwhile)',
    ),
  }).listen(outboxChannel((topic) => relay.notify(topic)));
  pgListenMetric(registry, listener);
  await listener.start();
  logger.info({ opsPort: config.ops.port, transport: config.bus.kind }, 'ledger started');

  return {
    opsPort: (ops.server.address() as { port: number }).port,
    failure: busFailure.failure,
    shutdownTimeoutMs: config.shutdown.timeoutMs,
    ...serviceStop({ ops, topics, transport, prisma, pool }, [
      ['bus consumer (the batch in hand finishes)', () => app.close()],
      ['LISTEN connection', () => listener.stop()],
      ['outbox relay', () => relay.stop()],
    ]),
  };
}
