import { NestFactory } from '@nestjs/core';
import { createBankRail } from '@pay/bank-rail';
import {
  BusErrorFilter,
  BusServer,
  createServiceTransport,
  OutboxRelay,
  busReadinessCheck,
  STANDBY_GATHER_MS,
  TopicReadiness,
  watchBusFailure,
  withDeadLetterTopics,
} from '@pay/bus';
import { ConsumerGroup, Topic } from '@pay/contracts';
import {
  createDatabaseClients,
  DISBURSEMENT_DECIDED_CHANNEL,
  outboxChannel,
  PayoutRepository,
  PgListener,
  PgOutboxStore,
  startOpsAndWait,
} from '@pay/persistence';
import {
  createLogger,
  createMetricsRegistry,
  outboxBacklogMetric,
  pendingPayoutsMetric,
  pgListenMetric,
  serviceStop,
  throttledWarn,
} from '@pay/platform';
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
  const logger = createLogger('payout', config.logging.level);
  // Plain pg for the per-transfer work, the payout poll and the relay (docs/decisions/0011); Prisma only checks the database.
  const { prisma, pool } = createDatabaseClients(config.database, logger);
  const bus = config.bus;
  const registry = createMetricsRegistry('payout');
  const busFailure = watchBusFailure();
  const transport = createServiceTransport(bus, { logger, registry, onFailure: busFailure.onFailure });
  // Its relay publishes whatever the outbox holds (every topic); it consumes ledger.events.
  const topics = new TopicReadiness(transport, withDeadLetterTopics(Object.values(Topic)), { logger });
  topics.start();
  const ops = await startOpsAndWait('payout', config, {
    prisma,
    registry,
    redisUrl: bus.kind === 'redis-streams' ? bus.redisUrl : undefined,
    logger,
    checks: [busReadinessCheck(transport), topics],
  });
  const payouts = new PayoutRepository(pool);
  pendingPayoutsMetric(registry, payouts, { logger });
  const processor = new PayoutProcessor(payouts, createBankRail(config.rail, pool), logger, config.payouts);
  const poller = new PayoutPoller(processor, logger, config.payouts.pollIntervalMs);
  // One LISTEN connection for the process (each NOTIFY wakes every listening backend). The ledger
  // NOTIFYs each debit decision at commit: that wakes the loop (the bus event comes later, after
  // the outbox relay, and only stands in while this connection is down).
  const notices = new PgListener(config.database.url, {
    onError: throttledWarn(
      logger,
      'LISTEN connection lost; reconnecting (payouts wait for the bus wake-up meanwhile, the outbox relay for its poll)',
    ),
  }).listen({ channel: DISBURSEMENT_DECIDED_CHANNEL, onNotify: () => poller.wake(), onReconnect: () => poller.wake() });
  const app = await NestFactory.createMicroservice(
    PayoutModule.register({ wake: () => (notices.listening ? undefined : poller.wake()) }),
    {
      // The stand-by wake-up: it reads what a second brought in one go (under load, reading every
      // event as it came cost payout half its CPU on Kafka), so a LISTEN outage delays payouts by up to a second.
      strategy: new BusServer({ transport, group: ConsumerGroup.Payout, gatherMs: STANDBY_GATHER_MS }),
      logger: false,
      abortOnError: false,
    },
  );
  app.useGlobalFilters(new BusErrorFilter());
  const outbox = new PgOutboxStore(pool);
  outboxBacklogMetric(registry, outbox, { topics: Object.values(Topic), logger });
  // Woken for its own outcomes; every other topic (the ledger relays the commands) only at its safety-net poll.
  const relay = new OutboxRelay({
    store: outbox,
    transport,
    batchSize: config.outbox.batchSize,
    pollIntervalMs: config.outbox.pollIntervalMs,
    lingerMs: config.outbox.lingerMs,
    wakeTopics: [Topic.PayoutEvents],
    logger,
  });
  notices.listen(outboxChannel((topic) => relay.notify(topic)));
  await app.listen();
  pgListenMetric(registry, notices);
  // Before the loops start: a decision or outcome committed once they have looked is heard.
  await notices.start();
  poller.start();
  relay.start();
  logger.info({ opsPort: config.ops.port }, 'payout started');
  return {
    failure: busFailure.failure,
    shutdownTimeoutMs: config.shutdown.timeoutMs,
    ...serviceStop({ ops, topics, transport, prisma, pool }, [
      ['bus consumer (the batch in hand finishes)', () => app.close()],
      ['LISTEN connection', () => notices.stop()],
      ['disbursement poller (the round in hand finishes)', () => poller.stop()],
      ['outbox relay', () => relay.stop()],
    ]),
  };
}
