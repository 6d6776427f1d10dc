import { QueueName, type ReconExportJob } from '@pay/contracts';
import { type ConnectionOptions, Queue } from 'bullmq';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { TransientError } from '../faults/fault';
import { warnOnError } from '../logging/throttled-warn';

/**
 * Attempts of one export before it is reported failed, with exponential backoff from 2 s (about 4
 * minutes in all). Only failures that are not transient spend one: the workers wait out a
 * database, Redis or object store that is away without counting (ReconExportQueue).
 */
export const RECON_EXPORT_ATTEMPTS = 8;

/**
 * Enqueues recon export builds (gateway on request, workers' sweeper for lost jobs). On a
 * request path give it a failFastRedis connection: while Redis is away `enqueue` throws a
 * TransientError at once (the request answers 503), and the workers' sweeper enqueues the
 * export that was recorded but not queued once Redis is back.
 */
export class ReconExportProducer {
  readonly queue: Queue<ReconExportJob>;

  constructor(
    private readonly connection: ConnectionOptions,
    prefix: string,
    logger: Logger,
  ) {
    this.queue = warnOnError(
      new Queue<ReconExportJob>(QueueName.ReconExport, { connection, prefix }),
      logger,
      'recon export queue',
    );
  }

  /** The job id is the export id: enqueueing the same export twice is a no-op. */
  async enqueue(exportId: string): Promise<void> {
    // BullMQ waits for a connection that never was ready; a request must not.
    if (this.connection instanceof Redis && this.connection.status !== 'ready')
      throw new TransientError(`Redis is not reachable (${this.connection.status})`);
    await this.queue.add(
      'build',
      { exportId },
      {
        jobId: exportId,
        attempts: RECON_EXPORT_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: { age: 86400 },
        removeOnFail: { age: 7 * 86400 },
      },
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
