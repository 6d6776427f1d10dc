import type { EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import { batchLength, DEFAULT_MAX_BATCH, deliverBatchOnce } from '../delivery/batch-delivery';
import { type DeadLetterReason, logDeliveryFailure } from '../delivery/dead-letter';
import { deliverOnce, type DeliveryPolicy, type DeliveryState, transientRetry } from '../delivery/delivery.policy';
import { type BusLogger, errorDetails } from '../logging/bus-logger.interface';
import type { IncomingRecord, SubscribeOptions } from '../transport/bus-transport.interface';

/** Kafka keeps no delivery count: it is kept here, for the record at `offset`, across pauses of its partition. */
interface PartitionState extends DeliveryState {
  topic: string;
  partition: number;
  offset: string;
}

export interface KafkaBatchContext {
  subscription: SubscribeOptions;
  policy: DeliveryPolicy;
  logger: BusLogger;
  deadLetter(record: IncomingRecord, reason: DeadLetterReason): Promise<void>;
}

const partitionKey = (topic: string, partition: number): string => `${topic}|${partition}`;

function headerText(value: IHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

function toRecord(topic: string, partition: number, message: KafkaMessage, deliveryCount: number): IncomingRecord {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) headers[name] = text;
  }
  return {
    topic,
    key: message.key?.toString() ?? '',
    value: message.value?.toString() ?? '',
    headers,
    partition,
    id: `${partition}:${message.offset}`,
    deliveryCount,
  };
}

/**
 * One subscription's `eachBatch`: records in order (consecutive ones together when the
 * subscription has a batch handler), each offset resolved only once it is handled or dead-lettered. A record to retry pauses its own partition for the backoff and leaves its
 * offset unresolved; kafkajs fetches again from there after the resume. Retrying in place would
 * hold the fetch of every partition on the broker: kafkajs fetches again only when all the
 * batches of the last fetch are done.
 */
export class KafkaBatchConsumer {
  private readonly states = new Map<string, PartitionState>();
  private readonly resumes = new Map<string, NodeJS.Timeout>();
  /** Consecutive transient failures of the batch at the head of each partition (for its backoff). */
  private readonly batchFailures = new Map<string, number>();

  constructor(
    private readonly ctx: KafkaBatchContext,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.clearTimers(), { once: true });
  }

  async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale } = payload;
    const { topic, partition, messages } = batch;
    for (let i = 0; i < messages.length;) {
      if (!isRunning() || isStale() || this.signal.aborted) return;
      const n = this.batchLength(topic, partition, messages, i);
      const together = n > 1 ? messages.slice(i, i + n) : null;
      if (together) {
        const step = await this.deliverBatch(topic, partition, together);
        if (this.signal.aborted) return;
        if (step === 'handled') {
          payload.resolveOffset(together[together.length - 1].offset);
          await payload.heartbeat();
          i += together.length;
          continue;
        }
        if (step !== 'one-by-one') {
          this.pauseFor(topic, partition, step.retryInMs, payload.pause);
          return;
        }
      }
      for (const message of together ?? [messages[i]]) {
        if (!(await this.deliverOne(payload, message))) return;
      }
      i += together?.length ?? 1;
    }
  }

  /** One record: false when the partition was paused for a retry (or the consumer is stopping). */
  private async deliverOne(
    { batch, resolveOffset, heartbeat, isRunning, isStale, pause }: EachBatchPayload,
    message: KafkaMessage,
  ): Promise<boolean> {
    const { topic, partition } = batch;
    if (!isRunning() || isStale() || this.signal.aborted) return false;
    const retryInMs = await this.deliver(topic, partition, message);
    // Stopping: the offset stays unresolved for the next owner, nothing to pause.
    if (this.signal.aborted) return false;
    if (retryInMs !== null) {
      this.pauseFor(topic, partition, retryInMs, pause);
      return false;
    }
    resolveOffset(message.offset);
    await heartbeat(); // a long batch must not get the member evicted
    return true;
  }

  /** Consecutive first deliveries batch together; a record being retried (state kept for it) goes alone. */
  private batchLength(topic: string, partition: number, messages: KafkaMessage[], start: number): number {
    const { batchHandler, maxBatch } = this.ctx.subscription;
    if (!batchHandler || this.states.has(partitionKey(topic, partition))) return 0;
    return batchLength(
      messages.map(() => ({ deliveryCount: 1 })),
      start,
      maxBatch ?? DEFAULT_MAX_BATCH,
    );
  }

  /** A batch failing because a dependency is away pauses the partition and is fetched and tried again whole. */
  private async deliverBatch(
    topic: string,
    partition: number,
    messages: KafkaMessage[],
  ): Promise<'handled' | 'one-by-one' | { retryInMs: number }> {
    const { subscription, policy, logger } = this.ctx;
    const key = partitionKey(topic, partition);
    const records = messages.map((m) => toRecord(subscription.topic, partition, m, 1));
    const fields = { topic, group: subscription.group, partition, first: records[0].id, count: records.length };
    const step = await deliverBatchOnce(
      records,
      subscription.batchHandler as NonNullable<SubscribeOptions['batchHandler']>,
      policy,
      this.batchFailures.get(key) ?? 0,
    );
    if (step.kind === 'retry') {
      this.batchFailures.set(key, step.transientFailures);
      logger.warn(
        {
          ...fields,
          transientFailures: step.transientFailures,
          retryInMs: step.delayMs,
          err: errorDetails(step.error),
        },
        'bus batch failed (a dependency is away); retrying it whole',
      );
      return { retryInMs: step.delayMs };
    }
    this.batchFailures.delete(key);
    if (step.kind === 'one-by-one')
      logger.warn(
        { ...fields, err: errorDetails(step.error) },
        'bus batch failed; delivering its records one at a time',
      );
    return step.kind;
  }

  /** A new assignment: what was kept for partitions taken away is dropped (their next owner starts afresh). */
  onAssignment(assigned: Record<string, number[]>): void {
    for (const [key, { topic, partition }] of this.states) {
      if (!assigned[topic]?.includes(partition)) this.states.delete(key);
    }
  }

  /** Delivers the record once; returns null when it is done with (handled or dead-lettered), else the delay before the next try. */
  private async deliver(topic: string, partition: number, message: KafkaMessage): Promise<number | null> {
    const { subscription, policy, logger } = this.ctx;
    const key = partitionKey(topic, partition);
    const known = this.states.get(key);
    const state: DeliveryState = known?.offset === message.offset ? known : { deliveryCount: 1, transientFailures: 0 };
    // Handlers see the logical topic as subscribed (the cluster's name may carry KAFKA_TOPIC_PREFIX).
    const record = toRecord(subscription.topic, partition, message, state.deliveryCount);
    const fields = { topic, group: subscription.group, id: record.id, key: record.key };
    const step = await deliverOnce(record, subscription.handler, policy, state, (failure) =>
      logDeliveryFailure(logger, fields, failure),
    );
    if (step.kind === 'retry') {
      this.states.set(key, { topic, partition, offset: message.offset, ...step.next });
      return step.delayMs;
    }
    if (step.kind === 'dead-letter') {
      try {
        await this.ctx.deadLetter(record, step);
      } catch (error) {
        // Throwing out of eachBatch would restart the consumer (a rebalance of the whole group) or stop it
        // for good; the record is handled again after the pause and dead-lettered then.
        const { delayMs, next } = transientRetry(policy, state);
        this.states.set(key, { topic, partition, offset: message.offset, ...next });
        logger.warn(
          { ...fields, retryInMs: delayMs, err: errorDetails(error) },
          'bus dead-letter write failed; partition paused, retrying',
        );
        return delayMs;
      }
    }
    this.states.delete(key);
    return null;
  }

  private pauseFor(topic: string, partition: number, ms: number, pause: EachBatchPayload['pause']): void {
    const key = partitionKey(topic, partition);
    const resume = pause();
    clearTimeout(this.resumes.get(key));
    const timer = setTimeout(() => {
      this.resumes.delete(key);
      resume();
    }, ms);
    timer.unref();
    this.resumes.set(key, timer);
  }

  private clearTimers(): void {
    for (const timer of this.resumes.values()) clearTimeout(timer);
    this.resumes.clear();
  }
}
