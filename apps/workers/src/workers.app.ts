import { createQrisAcquirer, readSnapCredentials, SnapBankRail } from '@pay/bank-rail';
import { deadLetterTopic } from '@pay/bus';
import { startBusService } from '@pay/bus-service';
import { Topic } from '@pay/contracts';
import {
  createPgPool,
  DeadLetterRepository,
  DISBURSEMENT_DECIDED_CHANNEL,
  PayinExpiryRepository,
  PayinRefundRepository,
  PayinRepository,
  REAL_TIME,
  ReconExportRepository,
  SANDBOX_CLOCK_CHANNEL,
  SandboxClockRepository,
  SettlementPlanner,
  webhookDeliveryChannel,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import {
  BULLMQ_MAX_BLOCK_MS,
  ObjectStore,
  type RailCall,
  railMetrics,
  createRedis,
  redisSocketTimeout,
  throttledWarn,
  waitForDependency,
  warnOnError,
} from '@pay/platform';
import { DeadLetterArchiver } from './dead-letters/dead-letter.archiver';
import { PayinAcquirerCheck } from './payins/payin-acquirer.check';
import { PayinExpiryLoop } from './payins/payin-expiry.loop';
import { PayinRefundSender } from './payins/payin-refund.sender';
import { ReconDailyQueue } from './recon/recon-daily.queue';
import { ReconExportQueue } from './recon/recon-export.queue';
import { SandboxClockRunner } from './sandbox/sandbox-clock.runner';
import { SettlementQueue } from './settlement/settlement.queue';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service';
import { WebhookDispatcher } from './webhooks/webhook.dispatcher';
import type { WorkersConfig } from './workers.config';

/** Debited refunds are sent when the ledger's notice wakes the sender; this round catches a missed one. */
const REFUND_SAFETY_INTERVAL_MS = 2_000;
/** Sandbox clocks: an advance's NOTIFY wakes the runner; this round catches a missed one. */
const SANDBOX_CLOCK_SAFETY_INTERVAL_MS = 2_000;

/**
 * The workers process (no public HTTP API): delivers each final disbursement status (written by
 * the payout service) and each final pay-in status (written by the gateway and the expiry scan)
 * to the merchant's callback URL, signed and retried, straight from the delivery rows (decision
 * 0024); runs the pay-in expiry scan, and, on BullMQ, the settlement schedule and the recon CSV
 * exports; archives every dead-letter topic.
 */
export function startWorkers(config: WorkersConfig) {
  const store = new ObjectStore(config.storage);
  const storeCheck = { name: 'object-store', check: async () => void (await store.client.bucketExists(store.bucket)) };
  // QRIS_ACQUIRER=snap: codes due to expire are asked about there; refused credentials are a reason not to be ready.
  // Its calls counted in the service's registry (bound once it exists).
  let onAcquirerCall: ((call: RailCall) => void) | undefined;
  const acquirer = createQrisAcquirer(config.payins.acquirer, { onCall: (call) => onAcquirerCall?.(call) });
  const acquirerCheck = acquirer ? [{ name: 'qris-acquirer', check: () => acquirer.ready() }] : [];
  return startBusService(
    {
      name: 'workers',
      config,
      // It consumes every .dlq (the archiver).
      topics: Object.values(Topic).map(deadLetterTopic),
      checks: [storeCheck, ...acquirerCheck],
      redisUrl: config.redis.url,
      listenLost:
        "LISTEN connection lost; reconnecting (pay-in callbacks wait for the dispatcher's safety-net round meanwhile)",
    },
    // Plain pg for the per-delivery work (docs/decisions/0010); Prisma for settlements and recon.
    async ({ prisma, pool, logger, registry, transport, listener, startListening }) => {
      await waitForDependency('object storage', () => store.ensureBucket(), { logger });
      // BullMQ's connection (settlement, recon; maxRetriesPerRequest: null, as BullMQ needs): ioredis
      // reconnects by itself forever and commands wait for it, so queues and workers pick up where
      // they were once Redis is back; BullMQ duplicates it for each worker's blocking connection.
      // A silent Redis is given up on after BullMQ's longest block and 15 s more, then reconnected (decision 0015).
      const redis = warnOnError(
        createRedis(config.redis.url, {
          maxRetriesPerRequest: null,
          socketTimeout: redisSocketTimeout(BULLMQ_MAX_BLOCK_MS),
        }),
        logger,
        'redis (workers)',
      );

      const deliveries = new WebhookDeliveryRepository(pool);
      // SANDBOX_MODE: a merchant's callbacks are recorded on its sandbox clock's time; never read in production.
      const clocks = config.sandbox ? new SandboxClockRepository(pool) : null;
      const service = new WebhookDeliveryService(
        deliveries,
        logger,
        config.webhooks,
        undefined,
        undefined,
        clocks ?? REAL_TIME,
      );
      const dispatcher = new WebhookDispatcher(deliveries, service, logger, {
        concurrency: config.webhooks.concurrency,
        perMerchant: config.webhooks.merchantConcurrency,
        safetyIntervalMs: config.webhooks.dispatchIntervalMs,
      });
      // Deliveries are written by the payout service, the gateway and the expiry scan: their commit (or an operator's resend) wakes the dispatcher.
      listener.listen(webhookDeliveryChannel(() => dispatcher.wake()));
      if (acquirer) onAcquirerCall = railMetrics(registry).onCall;
      const expiryRepository = new PayinExpiryRepository(pool);
      const qris = config.payins.acquirer;
      const expiry = new PayinExpiryLoop(
        expiryRepository,
        () => dispatcher.wake(),
        logger,
        config.payins.expiryScanIntervalMs,
        undefined,
        acquirer &&
          new PayinAcquirerCheck(acquirer, new PayinRepository(prisma), expiryRepository, logger, {
            clockSkewMs: config.payins.clockSkewMs,
            // The SNAP provider simulator's payments are sandbox money (decision 0047).
            sandbox: qris.kind === 'snap' && qris.simulatorUrl !== null,
          }),
      );
      // Debited refunds go to the acquirer (simulated without one); the ledger's notice of a debit wakes the sender.
      const refundSender = new PayinRefundSender(
        new PayinRefundRepository(pool),
        acquirer,
        () => dispatcher.wake(),
        logger,
        REFUND_SAFETY_INTERVAL_MS,
      );
      listener.listen({
        channel: DISBURSEMENT_DECIDED_CHANNEL,
        onNotify: (payload) => {
          if (payload.endsWith(':pending')) refundSender.loop.wake();
        },
        onReconnect: () => refundSender.loop.wake(),
      });
      const planner = new SettlementPlanner(prisma);
      const clockRunner =
        clocks &&
        new SandboxClockRunner(clocks, planner, expiryRepository, deliveries, service, logger, {
          safetyIntervalMs: SANDBOX_CLOCK_SAFETY_INTERVAL_MS,
          concurrency: config.webhooks.merchantConcurrency,
        });
      if (clockRunner) {
        listener.listen({
          channel: SANDBOX_CLOCK_CHANNEL,
          onNotify: () => clockRunner.loop.wake(),
          onReconnect: () => clockRunner.loop.wake(),
        });
        // A callback written for a merchant whose clock is ahead is due on the clock, not yet in real time.
        listener.listen(webhookDeliveryChannel(() => clockRunner.loop.wake()));
      }
      const settlements = new SettlementQueue(planner, logger, {
        connection: redis,
        prefix: config.queues.prefix,
        scanIntervalMs: config.settlement.scanIntervalMs,
      });
      // Recon exports stream a COPY's output: plain pg connections, apart from Prisma's pool, with no
      // statement timeout (a large day behind a slow store takes a while; the export's stall watch
      // bounds it instead); reconnecting lazily.
      const streamingPool = createPgPool(config.database.url, 4, {
        preparedStatements: false,
        onError: throttledWarn(logger, 'postgres (streaming pool): connection error (reconnecting)'),
      });
      const recon = new ReconExportQueue(
        new ReconExportRepository(prisma),
        streamingPool,
        store,
        logger,
        { connection: redis, prefix: config.queues.prefix },
        undefined,
        config.recon.stallMs,
      );
      // RECON_DAILY_AT: yesterday's report and statement fetched over SNAP and reconciled, daily (the bank read, never paid through: not live).
      const dailyBank =
        config.reconDaily && acquirer
          ? new SnapBankRail(pool, config.reconDaily.snap, readSnapCredentials(config.reconDaily.snap.files), false)
          : null;
      const daily =
        config.reconDaily && acquirer && dailyBank
          ? new ReconDailyQueue(pool, { acquirer, bank: dailyBank }, logger, config.reconDaily, {
              connection: redis,
              prefix: config.queues.prefix,
            })
          : null;
      const archiver = new DeadLetterArchiver(transport, new DeadLetterRepository(pool), logger);
      archiver.registerMetrics(registry);

      dispatcher.start();
      await startListening();
      expiry.start();
      refundSender.loop.start();
      clockRunner?.loop.start();
      await settlements.start();
      await recon.start();
      await daily?.start();
      // A Redis that restarted without its data has lost the repeatable jobs: schedule them again
      // whenever the connection is ready again (idempotent when they survived).
      const reschedule = throttledWarn(
        logger,
        'could not re-create the repeatable jobs after Redis came back; next reconnect retries',
      );
      redis.on(
        'ready',
        () => void Promise.all([settlements.schedule(), recon.schedule(), daily?.schedule()]).catch(reschedule),
      );
      await archiver.start();
      let archiveStopped: Promise<unknown> = Promise.resolve(null);
      return {
        stop: [
          // On Kafka the archive's members leave once their current long poll (up to 5 s) ends: meanwhile the rest stops.
          [
            'dead-letter archive: leaving',
            () =>
              void (archiveStopped = archiver.stop().then(
                () => null,
                (error: unknown) => error,
              )),
          ], // not an unhandled rejection meanwhile
          ['callback expiry', () => expiry.stop()],
          ['pay-in refunds (the calls in flight finish)', () => refundSender.loop.stop()],
          ['sandbox clocks (the step in hand finishes)', async () => clockRunner?.loop.stop()],
          ['LISTEN connection', () => listener.stop()],
          ['webhook dispatcher (the attempts in flight finish)', () => dispatcher.stop()],
          ['settlements', () => settlements.stop()],
          ['recon exports (the file in hand finishes)', () => recon.stop()],
          ['recon streaming pool', () => streamingPool.end()],
          [
            'daily reconciliation (the day in hand finishes)',
            async () => {
              await daily?.stop();
              dailyBank?.close();
            },
          ],
          [
            'dead-letter archive',
            async () => {
              const archiveFailed = await archiveStopped;
              if (archiveFailed) throw archiveFailed;
            },
          ],
        ],
        beforeDatabase: [['redis', () => redis.disconnect()]],
      };
    },
  );
}
