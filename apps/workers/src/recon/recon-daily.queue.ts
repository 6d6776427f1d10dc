import {
  addDays,
  Reconciliation,
  reportOverSnap,
  type SnapReportSource,
  type SnapStatementSource,
  SourceUnavailableError,
  statementOverSnap,
} from '@pay/reconciliation';
import { type Logger, warnOnError } from '@pay/platform';
import { type ConnectionOptions, type Job, Queue, Worker } from 'bullmq';
import type { Pool } from 'pg';
import type { ReconDailyConfig } from './recon-daily.config';

export const RECON_DAILY_QUEUE = 'recon-daily';
const SCHEDULER_ID = 'recon-daily';
/** Who ingests and runs, in the day's sources and run */
export const RECON_DAILY_ACTOR = 'workers:recon-daily';

/** Reconcile a Jakarta day; the scheduled job fixes yesterday's on its first attempt. */
export interface ReconDailyJob {
  date?: string;
}

/** The Jakarta day before `at`'s. */
export const jakartaYesterday = (at: Date): string =>
  addDays(new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 10), -1);

/**
 * The daily reconciliation over SNAP as a BullMQ job scheduler (RECON_DAILY_AT, Asia/Jakarta): at
 * that time yesterday's acquirer settlement report and bank statement (every page) are fetched and
 * the day reconciled (libs/reconciliation: ingested, matched, booked once). A bank or acquirer that
 * does not give the day is not a reconciliation that failed: nothing is stored, the job is tried
 * again after RECON_DAILY_RETRY_MS, doubling, RECON_DAILY_ATTEMPTS times, then given up with an
 * error naming the command that runs it by hand. A run is idempotent: one run per day, bookings once.
 */
export class ReconDailyQueue {
  private readonly queue: Queue<ReconDailyJob>;
  private worker: Worker<ReconDailyJob> | undefined;
  private readonly reconciliation: Reconciliation;

  constructor(
    pool: Pool,
    private readonly sources: { acquirer: SnapReportSource; bank: SnapStatementSource },
    private readonly logger: Logger,
    private readonly settings: ReconDailyConfig,
    private readonly options: { connection: ConnectionOptions; prefix: string },
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.queue = warnOnError(
      new Queue<ReconDailyJob>(RECON_DAILY_QUEUE, { connection: options.connection, prefix: options.prefix }),
      logger,
      'recon daily queue',
    );
    this.reconciliation = new Reconciliation(pool, {
      acquirer: settings.acquirer,
      rail: settings.rail,
      settlementLagDays: settings.lagDays,
    });
  }

  private get jobOptions() {
    return {
      attempts: this.settings.attempts,
      backoff: { type: 'exponential' as const, delay: this.settings.retryMs },
      removeOnComplete: 100,
      removeOnFail: 500,
    };
  }

  /** (Re)creates the daily job at RECON_DAILY_AT, Jakarta time. Idempotent; run again whenever Redis comes back. */
  async schedule(): Promise<void> {
    const [hh, mm] = this.settings.at.split(':').map(Number);
    await this.queue.upsertJobScheduler(
      SCHEDULER_ID,
      { pattern: `${mm} ${hh} * * *`, tz: 'Asia/Jakarta' },
      { name: 'day', data: {}, opts: this.jobOptions },
    );
  }

  /** A day now (a missed day, a test), retried like the scheduled one; the same day asked twice while queued is one job. */
  async runDay(date: string): Promise<Job<ReconDailyJob>> {
    return this.queue.add('day', { date }, { ...this.jobOptions, jobId: `day-${date}` });
  }

  async start(): Promise<void> {
    await this.schedule();
    this.worker = new Worker<ReconDailyJob>(RECON_DAILY_QUEUE, (job) => this.process(job), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: 1,
    });
    warnOnError(this.worker, this.logger, 'recon daily worker');
    this.worker.on('failed', (job, err) => {
      const date = job?.data.date;
      if (job && job.attemptsMade < (job.opts.attempts ?? 1))
        this.logger.warn(
          { date, attempt: job.attemptsMade, err: err.message },
          'daily reconciliation: asked again later',
        );
      else
        this.logger.error(
          { date, attempts: job?.attemptsMade, err: err.message },
          `daily reconciliation of ${date ?? 'a day'} not run; run it by hand: admin recon run --date ${date ?? 'D'} --snap`,
        );
    });
  }

  /** Fetch both (nothing stored unless both came and read), then ingest and run. */
  private async process(job: Job<ReconDailyJob>): Promise<{ date: string; openBreaks: number }> {
    let date = job.data.date;
    if (!date) {
      // The scheduled job's day, fixed on its first attempt: a retry after midnight is still that day.
      date = jakartaYesterday(this.clock());
      await job.updateData({ date });
    }
    let report, statement;
    try {
      report = await reportOverSnap(this.sources.acquirer, date);
      statement = await statementOverSnap(this.sources.bank, date);
    } catch (err) {
      // Not a failed reconciliation: the day is not reconciled without its sources; BullMQ asks again.
      if (err instanceof SourceUnavailableError) throw new Error(`${err.message}; nothing was stored`);
      throw err;
    }
    await this.reconciliation.ingestReport(date, report, 'snap', RECON_DAILY_ACTOR);
    await this.reconciliation.ingestStatement(date, statement.lines, 'snap', RECON_DAILY_ACTOR);
    const day = await this.reconciliation.run(date, RECON_DAILY_ACTOR);
    const openBreaks = day.breaks.filter((b) => b.status === 'open').length;
    this.logger.info(
      {
        date,
        reportLines: report.lines.length,
        refundLines: report.refunds.length,
        statementLines: statement.lines.length,
        pages: statement.pages,
        openBreaks,
      },
      'daily reconciliation run',
    );
    return { date, openBreaks };
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
