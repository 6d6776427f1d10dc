import type Redis from 'ioredis';
import { BusLogger, errorDetails } from '../logging/bus-logger.interface';
import { type DeadLetterReason, logDeliveryFailure } from '../delivery/dead-letter';
import { deliverWithRetry, DeliveryPolicy } from '../delivery/delivery.policy';
import { IncomingRecord, RecordHandler } from '../transport/bus-transport.interface';
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
  logger: BusLogger;
  signal: AbortSignal;
  deadLetter(record: IncomingRecord, failure: DeadLetterReason): Promise<void>;
  /** Called whenever the worker becomes idle, so the reader can include this partition again at once. */
  onIdle(): void;
}

/**
 * Works one owned partition strictly one record at a time. Anything not finished (shutdown, lost lease, Redis error)
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
        this.ctx.logger.error({ ...this.logFields(), err: errorDetails(error) }, 'bus partition worker failed; entries stay pending and are reclaimed');
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
      const claimed = parseAutoClaimReply(await redis.call('XAUTOCLAIM', stream, group, consumer, 0, cursor, 'COUNT', readCount));
      cursor = claimed.cursor;
      if (claimed.deleted.length > 0) {
        this.ctx.logger.error({ ...this.logFields(), ids: claimed.deleted }, 'bus pending entries were trimmed from the stream before being handled');
      }
      if (claimed.entries.length === 0) continue;
      const first = claimed.entries[0].id;
      const last = claimed.entries[claimed.entries.length - 1].id;
      const counts = parsePendingCounts(await redis.call('XPENDING', stream, group, first, last, claimed.entries.length, consumer));
      this.ctx.logger.info({ ...this.logFields(), count: claimed.entries.length }, 'bus reclaimed unacknowledged entries');
      if (!(await this.process(claimed.entries, counts))) return;
    } while (cursor !== '0-0');
    this.reclaimed = true;
  }

  /** Returns false when it stopped early, leaving the rest pending. */
  private async process(entries: StreamEntry[], counts: Map<string, number>): Promise<boolean> {
    const { redis, stream, group, consumer, topic, partition } = this.ctx;
    for (const entry of entries) {
      if (!this.canWork()) return false;
      const record: IncomingRecord = {
        topic,
        key: entry.key,
        value: entry.value,
        headers: entry.headers,
        partition,
        id: `${partition}:${entry.id}`,
        deliveryCount: counts.get(entry.id) ?? 1,
      };
      const outcome = await deliverWithRetry(record, this.ctx.handler, this.ctx.policy, {
        canContinue: () => this.canWork(),
        signal: this.ctx.signal,
        // Persist the count so a member taking over after a crash continues from it (poison records still die).
        beforeRetry: async (n) => {
          await redis.call('XCLAIM', stream, group, consumer, 0, entry.id, 'RETRYCOUNT', n, 'JUSTID');
        },
        onFailure: (failure) => logDeliveryFailure(this.ctx.logger, { ...this.logFields(), id: record.id, key: record.key }, failure),
      });
      if (outcome.kind === 'aborted') return false;
      if (outcome.kind === 'dead-letter') await this.ctx.deadLetter(record, outcome);
      await redis.call('XACK', stream, group, entry.id);
    }
    return true;
  }

  private logFields(): Record<string, unknown> {
    return { topic: this.ctx.topic, group: this.ctx.group, consumer: this.ctx.consumer, partition: this.ctx.partition };
  }
}
