import { QueueName, type ReconExportJob } from '@pay/contracts';
import { jakartaDay } from '@pay/domain';
import { type ReconExportRepository, streamReconCsv } from '@pay/persistence';
import { type Logger, type ObjectStore, RECON_EXPORT_ATTEMPTS, ReconExportProducer } from '@pay/platform';
import { type ConnectionOptions, UnrecoverableError, Worker } from 'bullmq';
import type { Pool } from 'pg';

const SWEEP_SCHEDULER_ID = 'recon-sweep';

/**
 * Builds recon CSVs: Postgres writes the merchant's pay-ins of the day as CSV (COPY TO STDOUT)
 * and the bytes stream straight into an S3 multipart upload, one part in memory at a time, so
 * memory stays flat however large the day.
 * Retried by the queue; after the last attempt the export is marked failed. A sweeper
 * re-enqueues exports whose job was lost.
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
  ) {
    this.producer = new ReconExportProducer(options.connection, options.prefix);
  }

  async start(): Promise<void> {
    await this.store.ensureBucket();
    await this.producer.queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: 30_000 }, { name: 'sweep', data: { exportId: '' }, opts: { removeOnComplete: 50 } });
    this.worker = new Worker<ReconExportJob>(QueueName.ReconExport, (job) => (job.name === 'sweep' ? this.sweep() : this.build(job.data.exportId, job.attemptsMade + 1)), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: 2,
    });
    this.worker.on('failed', (job, err) => {
      if (!job || job.name === 'sweep') return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= RECON_EXPORT_ATTEMPTS;
      this.logger.error({ exportId: job.data.exportId, attempt: job.attemptsMade, err: err.message }, final ? 'recon export FAILED' : 'recon export attempt failed; will retry');
      if (final) void this.exports.fail(job.data.exportId, err.message).catch(() => undefined);
    });
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.producer.close();
  }

  private async sweep(): Promise<number> {
    const ids = await this.exports.stuckQueued(new Date(Date.now() - 60_000));
    for (const id of ids) await this.producer.enqueue(id);
    return ids.length;
  }

  /** One attempt; throws to let the queue retry. */
  async build(exportId: string, attempt = 1): Promise<number> {
    const e = await this.exports.start(exportId);
    if (!e) return 0;
    const date = e.date.toISOString().slice(0, 10);
    const day = jakartaDay(date);
    const key = `recon/${e.merchantId}/${date}/${e.id}.csv`;
    const t0 = Date.now();
    const { csv, totals, asOf, done } = await streamReconCsv(this.pool, e.merchantId, day.from, day.to);
    try {
      const uploaded = await this.store.putStream(key, csv, 'text/csv; charset=utf-8', this.partBytes);
      await done();
      await this.exports.finish(e.id, { objectKey: key, ...totals, dataAsOf: asOf });
      this.logger.info({ exportId: e.id, merchantId: e.merchantId, date, rows: totals.rowCount, bytes: uploaded.bytes, parts: uploaded.parts, ms: Date.now() - t0, attempt }, 'recon export ready');
      return totals.rowCount;
    } catch (err) {
      await done(err);
      throw err;
    }
  }
}
