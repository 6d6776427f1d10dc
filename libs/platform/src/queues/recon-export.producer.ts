import { QueueName, type ReconExportJob } from '@pay/contracts';
import { type ConnectionOptions, Queue } from 'bullmq';

export const RECON_EXPORT_ATTEMPTS = 3;

/** Enqueues recon export builds (gateway on request, workers' sweeper for lost jobs). */
export class ReconExportProducer {
  readonly queue: Queue<ReconExportJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<ReconExportJob>(QueueName.ReconExport, { connection, prefix });
  }

  /** The job id is the export id: enqueueing the same export twice is a no-op. */
  async enqueue(exportId: string): Promise<void> {
    await this.queue.add(
      'build',
      { exportId },
      { jobId: exportId, attempts: RECON_EXPORT_ATTEMPTS, backoff: { type: 'exponential', delay: 2000 }, removeOnComplete: { age: 86400 }, removeOnFail: { age: 7 * 86400 } },
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
