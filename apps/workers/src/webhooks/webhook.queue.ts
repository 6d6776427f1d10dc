import { QueueName, type WebhookDeliveryJob } from '@pay/contracts';
import type { WebhookScheduleRepository } from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop, warnOnError } from '@pay/platform';
import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import type { WebhookDeliveryService } from './webhook-delivery.service';

export interface WebhookQueueOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /**
   * The dispatcher's safety net: the longest it goes without asking the database what is due
   * (resends from the ops API, abandoned attempts, jobs Redis lost). Scheduled retries are
   * dispatched when they fall due, not at this interval.
   */
  dispatchIntervalMs: number;
}

const DISPATCH_BATCH = 500;

/**
 * The webhook-delivery queue: BullMQ runs the attempts (concurrency, stalled-job recovery);
 * the database decides when an attempt is due. A new delivery is enqueued at intake; the
 * dispatcher enqueues whatever else is due: it wakes when the earliest scheduled retry falls due
 * (an attempt that ends in a retry wakes it to learn that time), when Redis is back (`wake`),
 * and otherwise every dispatch interval, so a lost Redis job costs at most one interval.
 */
export class WebhookQueue {
  private readonly queue: Queue<WebhookDeliveryJob>;
  private worker: Worker<WebhookDeliveryJob> | undefined;
  private readonly dispatcher: WakeLoop;

  constructor(
    private readonly service: WebhookDeliveryService,
    private readonly schedule: WebhookScheduleRepository,
    private readonly logger: Logger,
    private readonly options: WebhookQueueOptions,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.dispatcher = new WakeLoop({ round: () => this.dispatchDue(), safetyIntervalMs: options.dispatchIntervalMs, onError: roundFailureLog(logger, 'webhook dispatch failed') });
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
    this.worker = new Worker<WebhookDeliveryJob>(QueueName.WebhookDelivery, (job) => this.service.attempt(job.data.deliveryId), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
    });
    warnOnError(this.worker, this.logger, 'webhook worker');
    this.worker.on('failed', (job, err) => this.logger.error({ jobId: job?.id, err: err.message }, 'webhook job failed'));
    // A retry was scheduled: the dispatcher looks up when the earliest one is due and sleeps until then.
    this.worker.on('completed', (_job, outcome) => {
      if (outcome === 'retry') this.dispatcher.wake();
    });
    this.dispatcher.start();
  }

  /** Dispatch now what is due (e.g. Redis is back and may have lost the queued jobs). */
  wake(): void {
    this.dispatcher.wake();
  }

  /** Enqueues every delivery that is due now; says when the next scheduled one is due. */
  async dispatchDue(): Promise<RoundResult & { dispatched: number }> {
    const { due, nextDueAt } = await this.schedule.dueAndNext(this.clock(), DISPATCH_BATCH);
    await Promise.all(due.map((r) => this.enqueue(r.id, r.attemptCount)));
    return { dispatched: due.length, more: due.length === DISPATCH_BATCH, nextDueAt };
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await this.dispatcher.stop();
    await worker?.close();
    await this.queue.close();
  }
}
