import { QueueName, type SettlementScanJob } from '@pay/contracts';
import type { SettlementPlanner } from '@pay/persistence';
import { type Logger, warnOnError } from '@pay/platform';
import { type ConnectionOptions, Queue, Worker } from 'bullmq';

const SCAN_SCHEDULER_ID = 'settlement-scan';

/**
 * The settlement schedule as a BullMQ repeatable job: every scan asks the planner which
 * merchants have a settlement due (T+n at their hour, Asia/Jakarta) and requests it from the
 * ledger. Scans are idempotent (one settlement per merchant and cut-off), so a repeated or
 * overlapping scan changes nothing.
 */
export class SettlementQueue {
  private readonly queue: Queue<SettlementScanJob>;
  private worker: Worker<SettlementScanJob> | undefined;

  constructor(
    private readonly planner: SettlementPlanner,
    private readonly logger: Logger,
    private readonly options: { connection: ConnectionOptions; prefix: string; scanIntervalMs: number },
  ) {
    this.queue = warnOnError(
      new Queue<SettlementScanJob>(QueueName.Settlement, { connection: options.connection, prefix: options.prefix }),
      logger,
      'settlement queue',
    );
  }

  /**
   * (Re)creates the repeatable scan. Idempotent; run at start and again whenever Redis comes
   * back, since a Redis that restarted without its data has lost the schedule.
   */
  async schedule(): Promise<void> {
    await this.queue.upsertJobScheduler(
      SCAN_SCHEDULER_ID,
      { every: this.options.scanIntervalMs },
      { name: 'scan', data: {}, opts: { removeOnComplete: 100, removeOnFail: 500 } },
    );
  }

  async start(): Promise<void> {
    await this.schedule();
    this.worker = new Worker<SettlementScanJob>(
      QueueName.Settlement,
      async (job) => {
        const planned = await this.planner.planDue(new Date(), job.data.merchantId);
        for (const p of planned.filter((x) => x.requested)) {
          this.logger.info(
            { merchantId: p.merchantId, settlementId: p.settlementId, cutoffAt: p.cutoffAt, payins: p.payinCount },
            'settlement requested from the ledger',
          );
        }
        return planned.filter((x) => x.requested).length;
      },
      { connection: this.options.connection, prefix: this.options.prefix, concurrency: 1 },
    );
    // BullMQ reconnects its blocking connection itself and resumes; this keeps its errors from being unheard.
    warnOnError(this.worker, this.logger, 'settlement worker');
    this.worker.on('failed', (job, err) =>
      this.logger.error({ jobId: job?.id, err: err.message }, 'settlement scan failed'),
    );
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
