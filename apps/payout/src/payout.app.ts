import { type BankRail, createBankRail } from '@pay/bank-rail';
import { STANDBY_GATHER_MS, withDeadLetterTopics } from '@pay/bus';
import { startBusService } from '@pay/bus-service';
import { ConsumerGroup, Topic } from '@pay/contracts';
import { BATCH_ROWS_CHANNEL, BatchRepository, DISBURSEMENT_DECIDED_CHANNEL, PayoutRepository } from '@pay/persistence';
import { pendingPayoutsMetric, railMetrics, sourceBalanceMetric, unknownPayoutsMetric } from '@pay/platform';
import type { PayoutConfig } from './payout.config';
import { PayoutModule } from './payout.module';
import { BatchRowsProcessor } from './processing/batch-rows.processor';
import { PayoutPoller } from './processing/payout.poller';
import { PayoutProcessor } from './processing/payout.processor';

/**
 * The payout process: takes debited disbursements to the bank rail and records their final
 * status (with the refund command on failure and the outcome event) through the outbox.
 * It also runs an outbox relay; the advisory lock lets one relay at a time publish.
 */
export function startPayout(config: PayoutConfig) {
  let rail: BankRail | undefined;
  return startBusService(
    {
      name: 'payout',
      config,
      // A bank that refuses our key or clock: not ready, with the provider's reason.
      checks: [{ name: 'rail', check: async () => rail?.ready?.() }],
      // Its relay publishes whatever the outbox holds (every topic); it consumes ledger.events.
      topics: withDeadLetterTopics(Object.values(Topic)),
      listenLost:
        'LISTEN connection lost; reconnecting (payouts wait for the bus wake-up meanwhile, the outbox relay for its poll)',
    },
    async ({ pool, logger, registry, listener, startListening, outboxRelay, consumer }) => {
      // Plain pg for the per-transfer work, the payout poll and the relay (docs/decisions/0011); Prisma only checks the database.
      const payouts = new PayoutRepository(pool);
      pendingPayoutsMetric(registry, payouts, { logger });
      unknownPayoutsMetric(registry, payouts, { logger });
      rail = createBankRail(config.rail, pool, railMetrics(registry));
      const balanceSource = rail.sourceBalance ? { sourceBalance: rail.sourceBalance.bind(rail) } : null;
      if (balanceSource) sourceBalanceMetric(registry, balanceSource, { logger, provider: config.rail.provider });
      const processor = new PayoutProcessor(payouts, rail, logger, config.payouts);
      // Batch payouts: the rows' name checks and debits, and each batch's completion (issue 44).
      const batchRows = new BatchRowsProcessor(new BatchRepository(pool), rail, logger, {
        ...config.payouts,
        safetyIntervalMs: config.payouts.pollIntervalMs,
      });
      // A round that finalised disbursements may have completed a batch.
      const poller = new PayoutPoller(processor, logger, config.payouts.pollIntervalMs, () => batchRows.wake());
      // The ledger NOTIFYs each debit decision at commit: that wakes the loop (the bus event comes
      // later, after the outbox relay, and only stands in while the LISTEN connection is down).
      // A refused debit may be a batch's last row: the batch loop hears it too.
      listener.listen({
        channel: DISBURSEMENT_DECIDED_CHANNEL,
        onNotify: () => {
          poller.wake();
          batchRows.wake();
        },
        onReconnect: () => {
          poller.wake();
          batchRows.wake();
        },
      });
      listener.listen({
        channel: BATCH_ROWS_CHANNEL,
        onNotify: () => batchRows.wake(),
        onReconnect: () => batchRows.wake(),
      });
      const app = await consumer(
        PayoutModule.register({ wake: () => (listener.listening ? undefined : poller.wake()) }),
        {
          group: ConsumerGroup.Payout,
          // The stand-by wake-up: it reads what a second brought in one go (under load, reading every
          // event as it came cost payout half its CPU on Kafka), so a LISTEN outage delays payouts by up to a second.
          gatherMs: STANDBY_GATHER_MS,
        },
      );
      // Woken for its own outcomes; every other topic (the ledger relays the commands) only at its safety-net poll.
      const relay = outboxRelay(config.outbox, [Topic.PayoutEvents]);
      await app.listen();
      // Before the loops start: a decision or outcome committed once they have looked is heard.
      await startListening();
      poller.start();
      batchRows.start();
      relay.start();
      return {
        stop: [
          ['bus consumer (the batch in hand finishes)', () => app.close()],
          ['LISTEN connection', () => listener.stop()],
          ['disbursement poller (the round in hand finishes)', () => poller.stop()],
          ['batch rows loop (the round in hand finishes)', () => batchRows.stop()],
          ['outbox relay', () => relay.stop()],
        ],
      };
    },
  );
}
