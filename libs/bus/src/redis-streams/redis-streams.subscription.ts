import type Redis from 'ioredis';
import { BusLogger, errorDetails } from '../logging/bus-logger.interface';
import type { DeadLetterReason } from '../delivery/dead-letter';
import { DeliveryPolicy, sleep } from '../delivery/delivery.policy';
import { BatchHandler, IncomingRecord, RecordHandler, Subscription } from '../transport/bus-transport.interface';
import {
  acquireLease,
  assignPartitions,
  heartbeatMember,
  leaveMembers,
  releaseLease,
  renewLeases,
} from './lease.scripts';
import { PartitionWorker } from './partition.worker';
import { RedisKeys } from './redis-keys';
import { parseReadReply } from './redis-stream.codec';

/** A wake-up retried every 10 ms for at most 1 s (a read Redis has not blocked yet is a matter of microseconds). */
const WAKE_RETRY_MS = 10;
const WAKE_ATTEMPTS = 100;

export interface RedisStreamsSubscriptionConfig {
  topic: string;
  group: string;
  consumer: string;
  handler: RecordHandler;
  batchHandler?: BatchHandler;
  maxBatch: number;
  partitions: number;
  blockMs: number;
  /** SubscribeOptions.gatherMs: after a read that returned records, the next begins this much later (0: at once). */
  gatherMs: number;
  readCount: number;
  leaseTtlMs: number;
  heartbeatIntervalMs: number;
  policy: DeliveryPolicy;
}

export interface RedisStreamsSubscriptionDeps {
  redis: Redis;
  /** Dedicated to XREADGROUP: a blocked connection can carry nothing else. */
  blocking: Redis;
  keys: RedisKeys;
  logger: BusLogger;
  deadLetter(record: IncomingRecord, group: string, reason: DeadLetterReason): Promise<void>;
}

/**
 * One group member on one topic. A heartbeat keeps its membership and partition leases alive and rebalances;
 * a single reader loop feeds the partitions it owns to one worker per partition.
 */
export class RedisStreamsSubscription implements Subscription {
  private readonly workers = new Map<number, PartitionWorker>();
  private readonly abort = new AbortController();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private tickInFlight: Promise<void> | null = null;
  private readLoop: Promise<void> | null = null;
  private blockingClientId: number | null = null;
  private reading = false;
  /** Counts reads, so a wake-up aimed at one read never ends the next one. */
  private readGeneration = 0;
  /** Counts closes of the blocking connection: a read that saw one may have lost its reply (see runReadLoop). */
  private blockingCloses = 0;
  /** A gathering subscription's next read waits until then (see gatherMs). */
  private nextReadAt = 0;
  private closed: Promise<void> | null = null;

  constructor(
    private readonly cfg: RedisStreamsSubscriptionConfig,
    private readonly deps: RedisStreamsSubscriptionDeps,
  ) {}

  async start(): Promise<void> {
    await this.ensureGroups();
    await this.refreshBlockingClientId();
    this.deps.blocking.on('ready', () => void this.refreshBlockingClientId().catch(() => undefined));
    this.deps.blocking.on('close', () => void (this.blockingCloses += 1));
    await this.tick();
    this.heartbeatTimer = setInterval(() => {
      if (!this.tickInFlight) this.tickInFlight = this.tick().finally(() => (this.tickInFlight = null));
    }, this.cfg.heartbeatIntervalMs);
    this.readLoop = this.runReadLoop();
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.abort.abort();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.wakeReader();
    await this.readLoop;
    await this.tickInFlight;
    await Promise.all([...this.workers.values()].map((w) => w.busy));
    const { redis, blocking, keys } = this.deps;
    await this.quietly('release leases', () =>
      Promise.all(
        [...this.workers.values()]
          .filter((w) => !w.lost)
          .map((w) => releaseLease(redis, w.leaseKey, this.cfg.consumer)),
      ),
    );
    this.workers.clear();
    await this.quietly('leave group', () =>
      leaveMembers(redis, keys.members(this.cfg.topic, this.cfg.group), this.cfg.consumer),
    );
    await this.quietly('remove idle consumer', () => this.deleteConsumerIfIdle());
    if (blocking.status !== 'end') await this.quietly('close blocking connection', () => blocking.quit());
    this.deps.logger.info(this.logFields(), 'bus subscription closed');
  }

  private async ensureGroups(): Promise<void> {
    const { redis, keys } = this.deps;
    await Promise.all(
      Array.from({ length: this.cfg.partitions }, async (_, p) => {
        try {
          // From 0 (not $): a group created after records were published still gets them, like Kafka's earliest.
          await redis.call('XGROUP', 'CREATE', keys.stream(this.cfg.topic, p), this.cfg.group, '0', 'MKSTREAM');
        } catch (error) {
          if (!(error instanceof Error && error.message.includes('BUSYGROUP'))) throw error;
        }
      }),
    );
  }

  private async refreshBlockingClientId(): Promise<void> {
    this.blockingClientId = Number(await this.deps.blocking.call('CLIENT', 'ID'));
  }

  /** Heartbeat: refresh membership, renew or hand back leases, take free partitions that are now ours. */
  private async tick(): Promise<void> {
    if (this.abort.signal.aborted) return;
    const { redis, keys } = this.deps;
    const { topic, group, consumer, leaseTtlMs, partitions } = this.cfg;
    try {
      const members = await heartbeatMember(redis, keys.members(topic, group), consumer, leaseTtlMs);
      const desired = assignPartitions(members, consumer, partitions);
      const held = [...this.workers.values()].filter((w) => !w.lost);
      const sentAt = Date.now();
      const renewed = await renewLeases(
        redis,
        held.map((w) => w.leaseKey),
        consumer,
        leaseTtlMs,
      );
      let readerMustDrop = false;
      held.forEach((w, i) => {
        if (renewed[i]) {
          w.validUntil = sentAt + leaseTtlMs;
          w.releasing = !desired.has(w.partition);
        } else {
          w.lost = true;
          this.deps.logger.warn({ ...this.logFields(), partition: w.partition }, 'bus partition lease lost');
        }
        readerMustDrop ||= w.lost || w.releasing;
      });
      // A read may be blocked on this partition's stream: end it, so the partition is dropped (and handed over) now.
      if (readerMustDrop) void this.wakeReader();
      if (this.abort.signal.aborted) return;
      for (const p of desired) {
        if (this.workers.has(p)) continue;
        const leaseKey = keys.lease(topic, group, p);
        const sentAt = Date.now();
        if (!(await acquireLease(redis, leaseKey, consumer, leaseTtlMs))) continue;
        const worker = this.newWorker(p, leaseKey);
        worker.validUntil = sentAt + leaseTtlMs;
        this.workers.set(p, worker);
        this.deps.logger.info({ ...this.logFields(), partition: p }, 'bus partition acquired');
      }
      for (const w of this.workers.values()) if (w.needsReclaim()) w.startReclaim();
    } catch (error) {
      this.deps.logger.error({ ...this.logFields(), err: errorDetails(error) }, 'bus heartbeat failed');
    }
  }

  private newWorker(partition: number, leaseKey: string): PartitionWorker {
    const { topic, group, consumer, readCount, policy, handler, batchHandler, maxBatch } = this.cfg;
    return new PartitionWorker({
      redis: this.deps.redis,
      topic,
      group,
      consumer,
      partition,
      stream: this.deps.keys.stream(topic, partition),
      leaseKey,
      readCount,
      policy,
      handler,
      batchHandler,
      maxBatch,
      logger: this.deps.logger,
      signal: this.abort.signal,
      deadLetter: (record, reason) => this.deps.deadLetter(record, group, reason),
      onIdle: () => void this.wakeReader(),
    });
  }

  private async runReadLoop(): Promise<void> {
    const { group, consumer, readCount, blockMs } = this.cfg;
    let failures = 0;
    while (!this.abort.signal.aborted) {
      const gathering = this.nextReadAt - Date.now();
      if (gathering > 0) await sleep(gathering, this.abort.signal);
      await this.dropReleasedPartitions();
      const readable = [...this.workers.values()].filter((w) => w.isReadable());
      if (readable.length === 0) {
        await sleep(Math.min(blockMs, 50), this.abort.signal);
        continue;
      }
      const streams = readable.map((w) => w.stream);
      // Checked after the last await: a close that came meanwhile must not wait out a whole BLOCK.
      if (this.abort.signal.aborted) break;
      const closesBefore = this.blockingCloses;
      try {
        this.reading = true;
        this.readGeneration += 1;
        const reply = await this.deps.blocking.call(
          'XREADGROUP',
          'GROUP',
          group,
          consumer,
          'COUNT',
          readCount,
          'BLOCK',
          this.blockFor(readable),
          'STREAMS',
          ...streams,
          ...streams.map(() => '>'),
        );
        this.reading = false;
        failures = 0;
        if (this.blockingCloses !== closesBefore) {
          // The connection dropped while this read was out: Redis may have served it (the entries went
          // into this member's pending list) and lost the reply, and ioredis then sent the read again.
          // Those entries would never be handled: reclaim the partitions, which re-delivers every
          // pending entry (this reply's too) in id order.
          this.mustReclaim(readable, 'bus read interrupted by a lost Redis connection; reclaiming its partitions');
          continue;
        }
        const byStream = parseReadReply(reply);
        let read = 0;
        let full = false;
        for (const w of readable) {
          const entries = byStream.get(w.stream);
          if (entries && entries.length > 0) w.startBatch(entries);
          read += entries?.length ?? 0;
          full ||= (entries?.length ?? 0) >= readCount;
        }
        // Gathering: the next read after records comes gatherMs later, unless a stream had more than one read takes.
        if (this.cfg.gatherMs > 0 && read > 0 && !full) this.nextReadAt = Date.now() + this.cfg.gatherMs;
      } catch (error) {
        this.reading = false;
        failures += 1;
        if (error instanceof Error && error.message.includes('NOGROUP'))
          await this.ensureGroups().catch(() => undefined);
        this.deps.logger.error({ ...this.logFields(), err: errorDetails(error) }, 'bus read failed');
        // A read can fail after Redis served it (the reply lost with the connection).
        this.mustReclaim(readable);
        await sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)), this.abort.signal);
      }
    }
  }

  /**
   * These partitions are reclaimed before any new entry of them is read: now when Redis answers
   * again (`warning` given), else at the next heartbeat.
   */
  private mustReclaim(workers: readonly PartitionWorker[], warning?: string): void {
    for (const w of workers) w.reclaimed = false;
    if (!warning) return;
    this.deps.logger.warn({ ...this.logFields(), partitions: workers.map((w) => w.partition) }, warning);
    for (const w of workers) if (w.needsReclaim()) w.startReclaim();
  }

  /**
   * Runs only between reads, so a partition is never handed back while a read that includes it is in flight:
   * otherwise entries could land in this member's pending list after the next owner already reclaimed.
   */
  private async dropReleasedPartitions(): Promise<void> {
    for (const w of [...this.workers.values()]) {
      if (!(w.releasing || w.lost) || w.busy) continue;
      this.workers.delete(w.partition);
      if (w.lost) continue;
      await this.quietly('release lease', () => releaseLease(this.deps.redis, w.leaseKey, this.cfg.consumer));
      this.deps.logger.info({ ...this.logFields(), partition: w.partition }, 'bus partition released for rebalance');
    }
  }

  /**
   * How long the next read may block: up to blockMs (a publish ends it at once), but never past the
   * soonest lease validity of the partitions it reads, less a margin, so a read always ends before
   * another member could take over one of them (entries must not land in this member's pending
   * list after the next owner reclaimed it).
   */
  private blockFor(readable: readonly PartitionWorker[]): number {
    const margin = Math.min(1_000, Math.floor(this.cfg.leaseTtlMs / 10));
    const soonest = Math.min(...readable.map((w) => w.validUntil));
    return Math.max(1, Math.min(this.cfg.blockMs, soonest - Date.now() - margin));
  }

  /**
   * Ends the current BLOCK early (CLIENT UNBLOCK) so an idle partition is read again, or a released one
   * dropped, without waiting it out. The read goes over another connection, so Redis may not have
   * blocked it yet when UNBLOCK arrives (the reply is 0): then it is tried again shortly, until that read ends.
   */
  private async wakeReader(): Promise<void> {
    const generation = this.readGeneration;
    for (let attempt = 0; attempt < WAKE_ATTEMPTS && this.reading && this.readGeneration === generation; attempt++) {
      if (this.blockingClientId === null) return;
      const unblocked: unknown = await this.deps.redis
        .call('CLIENT', 'UNBLOCK', this.blockingClientId, 'TIMEOUT')
        .catch(() => 0);
      if (Number(unblocked) === 1) return;
      await sleep(WAKE_RETRY_MS);
    }
  }

  private async deleteConsumerIfIdle(): Promise<void> {
    const { redis, keys } = this.deps;
    for (let p = 0; p < this.cfg.partitions; p++) {
      const stream = keys.stream(this.cfg.topic, p);
      const pending: unknown = await redis.call('XPENDING', stream, this.cfg.group, '-', '+', 1, this.cfg.consumer);
      if (Array.isArray(pending) && pending.length === 0)
        await redis.call('XGROUP', 'DELCONSUMER', stream, this.cfg.group, this.cfg.consumer);
    }
  }

  private async quietly(what: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.deps.logger.warn({ ...this.logFields(), err: errorDetails(error) }, `bus could not ${what} on close`);
    }
  }

  private logFields(): Record<string, unknown> {
    return { topic: this.cfg.topic, group: this.cfg.group, consumer: this.cfg.consumer };
  }
}
