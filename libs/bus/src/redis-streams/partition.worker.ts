import type Redis from 'ioredis';
import { BusLogger, errorDetails } from '../logging/bus-logger.interface';
import { type DeadLetterReason, logDeliveryFailure } from '../delivery/dead-letter';
import { batchLength, deliverBatchOnce } from '../delivery/batch-delivery';
import { deliverWithRetry, DeliveryPolicy, sleep } from '../delivery/delivery.policy';
import { BatchHandler, IncomingRecord, RecordHandler } from '../transport/bus-transport.interface';
import { parseAutoClaimReply, parsePendingCounts, StreamEntry } from './redis-stream.codec';

export interface PartitionWorkerContext {
  redis: Redis;
  topic: string;
  group: string;
  consumer: string;
  partition: number;
  stream: string;
  leaseKey: string;
  readCount: number;
  policy: DeliveryPolicy;
  handler: RecordHandler;
  batchHandler?: BatchHandler;
  maxBatch: number;
  logger: BusLogger;
  signal: AbortSignal;
  deadLetter(record: IncomingRecord, failure: DeadLetterReason): Promise<void>;
  /** Called whenever the worker becomes idle, so the reader can include this partition again at once. */
  onIdle(): void;
}

/**
 * Works one owned partition strictly in order: one record at a time, or (with a batch handler)
 * consecutive first deliveries together. Anything not finished (shutdown, lost lease, Redis error)
 * stays in the group's pending list; `reclaimed = false` then forces a reclaim pass, which re-delivers those entries
 * in id order before any new entry is read, so order holds across failures and owner changes.
 */
export class PartitionWorker {
  validUntil = 0;
  releasing = false;
  lost = false;
  reclaimed = false;
  busy: Promise<void> | null = null;

  constructor(private readonly ctx: PartitionWorkerContext) {}

  get partition(): number {
    return this.ctx.partition;
  }

  get stream(): string {
    return this.ctx.stream;
  }

  get leaseKey(): string {
    return this.ctx.leaseKey;
  }

  /** Local fence: never start a record once the lease may have expired, even if the heartbeat has not noticed yet. */
  canWork(): boolean {
    return !this.ctx.signal.aborted && !this.lost && Date.now() < this.validUntil;
  }

  isReadable(): boolean {
    return this.reclaimed && this.busy === null && !this.releasing && this.canWork();
  }

  needsReclaim(): boolean {
    return !this.reclaimed && this.busy === null && !this.releasing && this.canWork();
  }

  startReclaim(): void {
    this.run(() => this.reclaim());
  }

  startBatch(entries: StreamEntry[]): void {
    this.run(async () => {
      const counts = new Map(entries.map((e) => [e.id, 1]));
      if (!(await this.process(entries, counts))) this.reclaimed = false;
    });
  }

  private run(work: () => Promise<void>): void {
    this.busy = work()
      .catch((error: unknown) => {
        this.reclaimed = false;
        this.ctx.logger.error(
          { ...this.logFields(), err: errorDetails(error) },
          'bus partition worker failed; entries stay pending and are reclaimed',
        );
      })
      .finally(() => {
        this.busy = null;
        this.ctx.onIdle();
      });
  }

  /** Takes over every entry of this partition that some member read but never acknowledged, and handles them first. */
  private async reclaim(): Promise<void> {
    const { redis, stream, group, consumer, readCount } = this.ctx;
    let cursor = '0-0';
    do {
      if (!this.canWork()) return;
      // min-idle 0: the lease, not idle time, decides who may work the partition.
      const claimed = parseAutoClaimReply(
        await redis.call('XAUTOCLAIM', stream, group, consumer, 0, cursor, 'COUNT', readCount),
      );
      cursor = claimed.cursor;
      if (claimed.deleted.length > 0) {
        this.ctx.logger.error(
          { ...this.logFields(), ids: claimed.deleted },
          'bus pending entries were trimmed from the stream before being handled',
        );
      }
      if (claimed.entries.length === 0) continue;
      const first = claimed.entries[0].id;
      const last = claimed.entries[claimed.entries.length - 1].id;
      const counts = parsePendingCounts(
        await redis.call('XPENDING', stream, group, first, last, claimed.entries.length, consumer),
      );
      this.ctx.logger.info(
        { ...this.logFields(), count: claimed.entries.length },
        'bus reclaimed unacknowledged entries',
      );
      if (!(await this.process(claimed.entries, counts))) return;
    } while (cursor !== '0-0');
    this.reclaimed = true;
  }

  /** Returns false when it stopped early, leaving the rest pending. */
  private async process(entries: StreamEntry[], counts: Map<string, number>): Promise<boolean> {
    const records = entries.map((entry) => this.toRecord(entry, counts.get(entry.id) ?? 1));
    for (let i = 0; i < records.length;) {
      if (!this.canWork()) return false;
      const n = this.ctx.batchHandler ? batchLength(records, i, this.ctx.maxBatch) : 0;
      const batch = n > 1 ? records.slice(i, i + n) : null;
      const together = batch ? await this.processBatch(batch) : 'one-by-one';
      if (together === 'aborted') return false;
      for (const record of together === 'handled' ? [] : (batch ?? [records[i]])) {
        if (!(await this.processOne(record))) return false;
      }
      i += batch?.length ?? 1;
    }
    return true;
  }

  /** A batch retried whole while a dependency is away; acknowledged in one XACK once handled. */
  private async processBatch(records: IncomingRecord[]): Promise<'handled' | 'one-by-one' | 'aborted'> {
    const { redis, stream, group, policy, logger, signal } = this.ctx;
    const handler = this.ctx.batchHandler as BatchHandler;
    const fields = { ...this.logFields(), first: records[0].id, count: records.length };
    let transientFailures = 0;
    for (;;) {
      const step = await deliverBatchOnce(records, handler, policy, transientFailures);
      if (step.kind === 'handled') {
        await redis.call('XACK', stream, group, ...records.map((r) => r.id.slice(r.id.indexOf(':') + 1)));
        return 'handled';
      }
      if (step.kind === 'one-by-one') {
        logger.warn(
          { ...fields, err: errorDetails(step.error) },
          'bus batch failed; delivering its records one at a time',
        );
        return 'one-by-one';
      }
      transientFailures = step.transientFailures;
      logger.warn(
        { ...fields, transientFailures, retryInMs: step.delayMs, err: errorDetails(step.error) },
        'bus batch failed (a dependency is away); retrying it whole',
      );
      await sleep(step.delayMs, signal);
      if (!this.canWork()) return 'aborted';
    }
  }

  private async processOne(record: IncomingRecord): Promise<boolean> {
    const { redis, stream, group, consumer } = this.ctx;
    const entryId = record.id.slice(record.id.indexOf(':') + 1);
    const outcome = await deliverWithRetry(record, this.ctx.handler, this.ctx.policy, {
      canContinue: () => this.canWork(),
      signal: this.ctx.signal,
      // Persist the count so a member taking over after a crash continues from it (poison records still die).
      beforeRetry: async (n) => {
        await redis.call('XCLAIM', stream, group, consumer, 0, entryId, 'RETRYCOUNT', n, 'JUSTID');
      },
      onFailure: (failure) =>
        logDeliveryFailure(this.ctx.logger, { ...this.logFields(), id: record.id, key: record.key }, failure),
    });
    if (outcome.kind === 'aborted') return false;
    if (outcome.kind === 'dead-letter') await this.ctx.deadLetter(record, outcome);
    await redis.call('XACK', stream, group, entryId);
    return true;
  }

  private toRecord(entry: StreamEntry, deliveryCount: number): IncomingRecord {
    const { topic, partition } = this.ctx;
    return {
      topic,
      key: entry.key,
      value: entry.value,
      headers: entry.headers,
      partition,
      id: `${partition}:${entry.id}`,
      deliveryCount,
    };
  }

  private logFields(): Record<string, unknown> {
    return { topic: this.ctx.topic, group: this.ctx.group, consumer: this.ctx.consumer, partition: this.ctx.partition };
  }
}
