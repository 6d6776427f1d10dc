import { QueueName, type ReconExportJob } from '@pay/contracts';
import { jakartaDay } from '@pay/domain';
import {
  type ExportKind,
  isBooksFileKind,
  type ReconExport,
  type ReconExportRepository,
  streamBooksCsv,
  streamReconCsv,
} from '@pay/persistence';
import { reconciliationFile } from '@pay/reconciliation';
import {
  isTransientFault,
  type Logger,
  type ObjectStore,
  RECON_EXPORT_ATTEMPTS,
  ReconExportProducer,
  TransientError,
  warnOnError,
} from '@pay/platform';
import { pipeline, type Readable, Transform } from 'node:stream';
import { type ConnectionOptions, DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Pool } from 'pg';

const SWEEP_SCHEDULER_ID = 'recon-sweep';

/**
 * An attempt whose CSV has not moved for this long is abandoned as a transient fault and retried
 * by the queue. Without it, an object store or a database connection that hangs mid-upload (seen
 * in the chaos run when S3 was stopped during exports) held both worker slots for ever and every
 * later export stayed queued. One 8 MiB part takes well under a second on a healthy store.
 */
export const RECON_STALL_MS = 30_000;

/** Waits between attempts that failed for a transient reason: doubling from 1 s, capped at 10 s. */
export const transientRetryDelay = (retries: number): number => Math.min(10_000, 1000 * 2 ** Math.min(retries, 10));

/**
 * Builds recon CSVs: Postgres writes the merchant's pay-ins of the day as CSV (COPY TO STDOUT)
 * and the bytes stream straight into an S3 multipart upload, one part in memory at a time, so
 * memory stays flat however large the day.
 * An attempt that fails for a transient reason (database, Redis or object store away) waits
 * with capped backoff and spends no attempt, however long the outage (the bus's rule, decision
 * 0013); other failures are retried by the queue, and after the last attempt the export is marked
 * failed. A sweeper re-enqueues exports whose job was lost (a Redis restart without persistence).
 */
export class ReconExportQueue {
  private readonly producer: ReconExportProducer;
  private worker: Worker<ReconExportJob> | undefined;

  constructor(
    private readonly exports: ReconExportRepository,
    private readonly pool: Pool,
    private readonly store: ObjectStore,
    private readonly logger: Logger,
    private readonly options: { connection: ConnectionOptions; prefix: string },
    private readonly partBytes = 8 * 1024 * 1024,
    private readonly stallMs = RECON_STALL_MS,
  ) {
    this.producer = new ReconExportProducer(options.connection, options.prefix, logger);
  }

  /** (Re)creates the repeatable sweep: at start and whenever Redis comes back (a restarted Redis may have lost it). */
  async schedule(): Promise<void> {
    await this.producer.queue.upsertJobScheduler(
      SWEEP_SCHEDULER_ID,
      { every: 30_000 },
      { name: 'sweep', data: { exportId: '' }, opts: { removeOnComplete: 50 } },
    );
  }

  /** The bucket must exist already: startWorkers waits for it (a check here, unretried, crashed a start during an S3 restart). */
  async start(): Promise<void> {
    await this.schedule();
    this.worker = new Worker<ReconExportJob>(
      QueueName.ReconExport,
      (job, token) => (job.name === 'sweep' ? this.sweep() : this.attempt(job, token)),
      {
        connection: this.options.connection,
        prefix: this.options.prefix,
        concurrency: 2,
      },
    );
    warnOnError(this.worker, this.logger, 'recon export worker');
    this.worker.on('failed', (job, err) => {
      if (!job || job.name === 'sweep') return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= RECON_EXPORT_ATTEMPTS;
      this.logger.error(
        { exportId: job.data.exportId, attempt: job.attemptsMade, err: err.message },
        final ? 'recon export FAILED' : 'recon export attempt failed; will retry',
      );
      if (final) void this.exports.fail(job.data.exportId, err.message).catch(() => undefined);
    });
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.producer.close();
  }

  /** One attempt of a job; a transient failure puts the job back to wait without spending an attempt. */
  private async attempt(job: Job<ReconExportJob>, token?: string): Promise<number> {
    try {
      return await this.build(job.data.exportId, job.attemptsMade + 1);
    } catch (err) {
      if (!isTransientFault(err) || !token) throw err;
      // attemptsStarted counts every start, attemptsMade only the failures the queue retried.
      const waits = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
      const delay = transientRetryDelay(waits);
      this.logger.warn(
        { exportId: job.data.exportId, err: (err as Error).message, retryInMs: delay },
        'recon export waiting for a dependency; will retry',
      );
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
  }

  /**
   * Exports unfinished for a minute: a lost job (Redis restarted without persistence) is enqueued
   * again; a job that failed for good while the database was away to record it marks the export
   * failed now. A job still waiting or running is left alone.
   */
  private async sweep(): Promise<number> {
    let mended = 0;
    for (const id of await this.exports.unfinished(new Date(Date.now() - 60_000))) {
      const job = await this.producer.queue.getJob(id);
      if (!job) {
        await this.producer.enqueue(id);
        mended++;
      } else if ((await job.isFailed()) && job.attemptsMade >= RECON_EXPORT_ATTEMPTS) {
        await this.exports.fail(id, job.failedReason || 'failed');
        mended++;
      }
    }
    return mended;
  }

  /** The file's CSV and totals: a merchant's day file, or the books' (no merchant): the ledger's or the day's reconciliation. */
  private open(e: ReconExport, date: string, kind: ExportKind) {
    if (kind === 'reconciliation') return reconciliationFile(this.pool, date);
    if (isBooksFileKind(kind)) return streamBooksCsv(this.pool, date, kind);
    const day = jakartaDay(date);
    return streamReconCsv(this.pool, e.merchantId as number, day.from, day.to, kind);
  }

  /** One attempt; throws to let the queue retry. */
  async build(exportId: string, attempt = 1): Promise<number> {
    const e = await this.exports.start(exportId);
    if (!e) return 0;
    const date = e.date.toISOString().slice(0, 10);
    const kind = e.kind as ExportKind;
    const key = objectKey(e, date, kind);
    const t0 = Date.now();
    const { csv, summary, done } = await this.open(e, date, kind);
    const watched = watchProgress(csv, this.stallMs);
    try {
      const uploaded = await Promise.race([
        this.store.putStream(key, watched.stream, 'text/csv; charset=utf-8', this.partBytes),
        watched.stalled,
      ]);
      watched.stop();
      const uploadMs = Date.now() - t0;
      // The totals ran on the connection while the last part went up: normally ready by now.
      const { totals, asOf } = await summary;
      const totalsWaitMs = Date.now() - t0 - uploadMs;
      await done();
      await this.exports.finish(e.id, { objectKey: key, ...totals, dataAsOf: asOf });
      // Where the time went: the CSV through the upload, the wait for the totals after it, the rest.
      const ms = Date.now() - t0;
      this.logger.info(
        {
          exportId: e.id,
          merchantId: e.merchantId,
          date,
          kind,
          rows: totals.rowCount,
          bytes: uploaded.bytes,
          parts: uploaded.parts,
          ms,
          uploadMs,
          totalsWaitMs,
          attempt,
        },
        'recon export ready',
      );
      return totals.rowCount;
    } catch (err) {
      watched.stop();
      await done(err);
      throw err;
    }
  }
}

/**
 * Where a file goes: a merchant's under its id (the pay-ins file keeps the key it always had; the
 * other kinds name themselves); the books' under the platform's own prefix, no merchant's.
 */
function objectKey(e: ReconExport, date: string, kind: ExportKind): string {
  if (isBooksFileKind(kind)) return `books/${date}/${kind}-${e.id}.csv`;
  return `recon/${e.merchantId}/${date}/${kind === 'payins' ? '' : `${kind}-`}${e.id}.csv`;
}

/**
 * The CSV through a pass-through that notes every chunk; `stalled` rejects once nothing has moved
 * for `stallMs`. Backpressure from a hanging upload stops the
 * chunks too, so this catches a stuck store as well as a stuck database.
 */
function watchProgress(source: Readable, stallMs: number): { stream: Readable; stalled: Promise<never>; stop(): void } {
  let last = Date.now();
  const tap = new Transform({
    transform(chunk, _encoding, callback) {
      last = Date.now();
      callback(null, chunk);
    },
  });
  pipeline(source, tap, () => undefined); // errors reach the reader through `tap`
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setInterval(
      () => {
        if (Date.now() - last < stallMs) return;
        const err = new TransientError(
          `recon export made no progress for ${stallMs} ms (object store or database not answering)`,
        );
        reject(err); // build() then calls done(err), which closes the CSV and drops its connection
      },
      Math.min(1000, stallMs),
    );
  });
  stalled.catch(() => undefined); // settled or not, nobody else awaits it
  return {
    stream: tap,
    stalled,
    stop: () => clearInterval(timer),
  };
}
