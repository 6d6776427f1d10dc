import { QueueName, type WebhookDeliveryJob } from '@pay/contracts';
import type { WebhookDeliveryRepository } from '@pay/persistence';
import { type Logger, roundFailureLog, warnOnError } from '@pay/platform';
import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import type { WebhookDeliveryService } from './webhook-delivery.service';

export interface WebhookQueueOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /** How often the database is asked for due deliveries (retries, resends, abandoned attempts) */
  dispatchIntervalMs: number;
}

/**
 * The webhook-delivery queue: BullMQ runs the attempts (concurrency, stalled-job recovery);
 * the database decides when an attempt is due. A dispatcher enqueues whatever is due, so a
 * lost Redis job (Redis keeps nothing on disk here) costs at most one dispatch interval.
 */
export class WebhookQueue {
  private readonly queue: Queue<WebhookDeliveryJob>;
  private worker: Worker<WebhookDeliveryJob> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dispatching: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly service: WebhookDeliveryService,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly logger: Logger,
    private readonly options: WebhookQueueOptions,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.queue = warnOnError(new Queue<WebhookDeliveryJob>(QueueName.WebhookDelivery, { connection: options.connection, prefix: options.prefix }), logger, 'webhook queue');
  }

  get bullQueue(): Queue<WebhookDeliveryJob> {
    return this.queue;
  }

  /**
   * One job per delivery attempt number: enqueueing the same attempt twice is a no-op while its job
   * waits or runs. A job that already finished (completed or failed) while the database still says
   * the attempt is due (its attempt could not be recorded: the database was away, the worker was
   * killed) is removed first, or the add would be a no-op for ever and the delivery never sent
   * (found by the chaos run: a delivery pending with 0 attempts for minutes).
   */
  async enqueue(deliveryId: string, attemptCount: number): Promise<void> {
    const jobId = `${deliveryId}.${attemptCount}`;
    const existing = await this.queue.getJob(jobId);
    if (existing && ['completed', 'failed'].includes(await existing.getState())) await existing.remove().catch(() => undefined);
    await this.queue.add(
      'deliver',
      { deliveryId },
      { jobId, attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 86400 } },
    );
  }

  start(): void {
    this.worker = new Worker<WebhookDeliveryJob>(QueueName.WebhookDelivery, async (job) => void (await this.service.attempt(job.data.deliveryId)), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
    });
    warnOnError(this.worker, this.logger, 'webhook worker');
    this.worker.on('failed', (job, err) => this.logger.error({ jobId: job?.id, err: err.message }, 'webhook job failed'));
    const failed = roundFailureLog(this.logger, 'webhook dispatch failed');
    const tick = () => {
      this.dispatching = this.dispatchDue()
        .catch(failed)
        .finally(() => {
          if (this.worker) this.timer = setTimeout(tick, this.options.dispatchIntervalMs);
        });
    };
    tick();
  }

  /** Enqueues every delivery that is due now. */
  async dispatchDue(): Promise<number> {
    const rows = await this.deliveries.due(this.clock(), 500);
    await Promise.all(rows.map((r) => this.enqueue(r.id, r.attemptCount)));
    return rows.length;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.timer);
    await this.dispatching;
    await worker?.close();
    await this.queue.close();
  }
}
