import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_BATCH } from '../delivery/batch-delivery';
import { deadLetter, type DeadLetterListener, type DeadLetterReason } from '../delivery/dead-letter';
import { hostname } from 'node:os';
import Redis from 'ioredis';
import { createRedis, redisSocketTimeout, TransientError, warnOnError } from '@pay/platform';
import { BusLogger, noopLogger } from '../logging/bus-logger.interface';
import { DEFAULT_DELIVERY_POLICY, DeliveryPolicy, RetryBackoff } from '../delivery/delivery.policy';
import { partitionForKey } from '../partitioner/murmur2.partitioner';
import {
  BusTransport,
  IncomingRecord,
  OutgoingRecord,
  SubscribeOptions,
  Subscription,
  TopicCheck,
} from '../transport/bus-transport.interface';
import { RedisKeys } from './redis-keys';
import { encodeFields } from './redis-stream.codec';
import { RedisStreamsSubscription } from './redis-streams.subscription';

export interface RedisStreamsTransportOptions {
  redisUrl: string;
  /** Namespaces every key, so environments and test runs never see each other's data. */
  keyPrefix?: string;
  partitions?: number;
  /**
   * Longest XREADGROUP BLOCK (default 30 s; a read never blocks past its partitions' lease validity
   * either). A publish ends it at once, and the reader is woken early when a partition becomes free
   * or is handed over, or the subscription closes: a long BLOCK costs no latency, only idle round trips saved.
   */
  blockMs?: number;
  readCount?: number;
  /** How long a dead member keeps its partitions before another member takes them over. */
  leaseTtlMs?: number;
  heartbeatIntervalMs?: number;
  maxDeliveries?: number;
  retryBackoff?: RetryBackoff;
  /**
   * Approximate cap per partition stream (XADD MAXLEN ~). Unset (the default): no trimming,
   * because MAXLEN also drops entries no group has read yet, and a dropped command is lost
   * money work. Set it only where losing unread entries beyond the cap is acceptable.
   */
  maxLenPerPartition?: number;
  /**
   * Replicas that must hold a publish before it counts as done (Redis WAIT after the XADDs;
   * default 0: the primary's answer is enough). Redis replicates asynchronously: a record the
   * primary acknowledged and a failover lost is a command never applied, though its outbox row
   * is marked published. With 1, a publish resolves only once a replica has the records, which
   * the Sentinel then promotes (it picks the replica with the most data); until one answers
   * within `replicaAckTimeoutMs` the publish fails as transient and the relay sends the rows
   * again (consumers drop the repeat). The bus stops moving while no replica answers, as Kafka
   * with acks=all and min.insync.replicas does (decision 0015).
   */
  replicasToAck?: number;
  /** How long a publish waits for `replicasToAck` replicas (default 1000 ms). */
  replicaAckTimeoutMs?: number;
}

export type RedisConnectionRole = 'command' | 'blocking';

export interface RedisStreamsTransportDeps {
  logger?: BusLogger;
  /** Told of every record dead-lettered (the services count them in a metric). */
  onDeadLetter?: DeadLetterListener;
  /** Override to share TLS/sentinel settings, or (tests) to get hold of connections. */
  createConnection?: (url: string, role: RedisConnectionRole, name: string) => Redis;
}

/**
 * Reconnect story of the bus' Redis connections: ioredis reconnects by itself, forever
 * (every 50 ms backing off to 2 s); commands sent meanwhile wait in its offline queue and
 * fail after 20 reconnect attempts, and the relay, heartbeat and read loop retry them. The
 * listener keeps the 'error' events (one per attempt) to a warn line every 10 s. A Redis that
 * goes silent is given up on after 15 s without an answer, the blocked read's block on top
 * (redisSocketTimeout), and reconnected to the same way.
 */
const defaultConnection =
  (logger: BusLogger, blockMs: number) =>
  (url: string, role: RedisConnectionRole, name: string): Redis =>
    warnOnError(
      createRedis(url, { connectionName: name, socketTimeout: redisSocketTimeout(role === 'blocking' ? blockMs : 0) }),
      logger,
      `redis (${name})`,
    );

async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return; // already gone (crash / network); disconnect() would arm a 2 s timer
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

export class RedisStreamsTransport implements BusTransport {
  private readonly redis: Redis;
  /** Where publishes go: the command connection, or one of their own while they WAIT for replicas (a WAIT holds its connection). */
  private readonly publisher: Redis;
  private readonly keys: RedisKeys;
  private readonly logger: BusLogger;
  private readonly onDeadLetter?: DeadLetterListener;
  private readonly createConnection: NonNullable<RedisStreamsTransportDeps['createConnection']>;
  private readonly subscriptions = new Set<RedisStreamsSubscription>();
  private readonly partitions: number;
  private readonly policy: DeliveryPolicy;
  private readonly leaseTtlMs: number;
  /** The longest a stream read blocks (a publish ends it at once). */
  private readonly blockMs: number;
  private closing = false;

  constructor(
    private readonly options: RedisStreamsTransportOptions,
    deps: RedisStreamsTransportDeps = {},
  ) {
    this.logger = deps.logger ?? noopLogger;
    this.onDeadLetter = deps.onDeadLetter;
    this.blockMs = options.blockMs ?? 30_000;
    this.createConnection = deps.createConnection ?? defaultConnection(this.logger, this.blockMs);
    this.keys = new RedisKeys(options.keyPrefix ?? 'bus:');
    this.partitions = options.partitions ?? 12;
    this.leaseTtlMs = options.leaseTtlMs ?? 10_000;
    this.policy = {
      maxDeliveries: options.maxDeliveries ?? DEFAULT_DELIVERY_POLICY.maxDeliveries,
      backoff: options.retryBackoff ?? DEFAULT_DELIVERY_POLICY.backoff,
    };
    this.redis = this.createConnection(options.redisUrl, 'command', 'bus:command');
    this.publisher =
      (options.replicasToAck ?? 0) > 0 ? this.createConnection(options.redisUrl, 'command', 'bus:publish') : this.redis;
  }

  async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    this.assertOpen();
    const maxLen = this.options.maxLenPerPartition;
    const trim = maxLen ? ['MAXLEN', '~', maxLen] : [];
    // One pipeline on one connection: Redis runs it in order, so records of one key keep their order.
    const pipeline = this.publisher.pipeline();
    for (const record of records) {
      const stream = this.keys.stream(topic, partitionForKey(record.key, this.partitions));
      pipeline.call('XADD', stream, ...trim, '*', ...encodeFields(record));
    }
    const replicas = this.options.replicasToAck ?? 0;
    const waitMs = this.options.replicaAckTimeoutMs ?? 1_000;
    if (replicas > 0) pipeline.call('WAIT', replicas, waitMs);
    const results = await pipeline.exec();
    if (!results) throw new Error('bus publish: pipeline was discarded');
    const failed = results.find(([error]) => error !== null);
    if (failed?.[0]) throw failed[0];
    if (replicas > 0) {
      const acked = Number(results[results.length - 1][1]);
      if (acked < replicas) {
        throw new TransientError(
          `bus publish: ${acked} of ${replicas} Redis replicas acknowledged the records within ${waitMs} ms; not published, sent again`,
        );
      }
    }
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const consumer = `${opts.consumerName ?? `${hostname()}-${process.pid}`}-${randomUUID().slice(0, 8)}`;
    const blocking = this.createConnection(this.options.redisUrl, 'blocking', `bus:${consumer}`);
    const subscription = new RedisStreamsSubscription(
      {
        topic: opts.topic,
        group: opts.group,
        consumer,
        handler: opts.handler,
        batchHandler: opts.batchHandler,
        maxBatch: opts.maxBatch ?? DEFAULT_MAX_BATCH,
        partitions: this.partitions,
        blockMs: this.blockMs,
        gatherMs: opts.gatherMs ?? 0,
        readCount: this.options.readCount ?? 50,
        leaseTtlMs: this.leaseTtlMs,
        heartbeatIntervalMs: this.options.heartbeatIntervalMs ?? Math.max(50, Math.floor(this.leaseTtlMs / 3)),
        policy: this.policy,
      },
      {
        redis: this.redis,
        blocking,
        keys: this.keys,
        logger: this.logger,
        deadLetter: (...args) => this.deadLetter(...args),
      },
    );
    try {
      await subscription.start();
    } catch (error) {
      await subscription.close();
      throw error;
    }
    this.subscriptions.add(subscription);
    this.logger.info({ topic: opts.topic, group: opts.group, consumer }, 'bus subscribed (redis streams)');
    const close = async (): Promise<void> => {
      this.subscriptions.delete(subscription);
      await subscription.close();
    };
    return { close };
  }

  /** Never set: a Redis Streams member reconnects and re-reads for as long as the process lives. */
  failure(): Error | null {
    return null;
  }

  /** Nothing to check: a stream and its partitions are made by their first record. */
  async checkTopics(): Promise<TopicCheck> {
    return { missing: [], wrongPartitions: [] };
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.subscriptions.clear();
    await Promise.all([...new Set([this.redis, this.publisher])].map(quit));
  }

  private deadLetter(record: IncomingRecord, group: string, reason: DeadLetterReason): Promise<void> {
    return deadLetter(
      (topic, records) => this.publish(topic, records),
      this.logger,
      { record, group, reason },
      this.onDeadLetter,
    );
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('bus transport is closed');
  }
}
