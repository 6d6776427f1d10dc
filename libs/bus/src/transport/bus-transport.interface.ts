export interface OutgoingRecord {
  key: string;
  /** JSON text; the bus never parses it. */
  value: string;
  headers?: Record<string, string>;
}

export interface IncomingRecord {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  partition: number;
  /** `${partition}:${streamEntryId}` on Redis, `${partition}:${offset}` on Kafka: unique per topic. */
  id: string;
  /** 1 on the first delivery; counts redeliveries after handler errors and reclaims. */
  deliveryCount: number;
}

export type RecordHandler = (record: IncomingRecord) => Promise<void>;

/**
 * Handles consecutive records of one partition as one unit, all or nothing (e.g. in one database
 * transaction): resolves when every record is handled, rejects when none is.
 */
export type BatchHandler = (records: IncomingRecord[]) => Promise<void>;

export interface Subscription {
  /** Stops reading, waits for the in-flight handler, releases what the member holds. */
  close(): Promise<void>;
}

export interface SubscribeOptions {
  topic: string;
  group: string;
  handler: RecordHandler;
  /**
   * Group commit: the records waiting on a partition (up to `maxBatch`) go to this handler together.
   * A batch failing because a dependency is away is retried whole, with backoff; one failing for any
   * other reason is handed to `handler` one record at a time, so a record that can never succeed is
   * found and dead-lettered alone. Records delivered before (a reclaim, a retry) always go one at a time.
   */
  batchHandler?: BatchHandler;
  /** Most records in one batch (default 200). */
  maxBatch?: number;
  /** Readable prefix for the member name in logs and broker tooling. */
  consumerName?: string;
  /**
   * Kafka: how long the broker holds a read that finds no records before it answers (the fetch's
   * long poll; default `DEFAULT_IDLE_READ_WAIT_MS`). Records that arrive are read at once either
   * way. A longer wait makes an idle member cheaper (one empty read per wait, each costing its
   * process about a millisecond of CPU), but a partition resumed after a retry's backoff is read
   * only once the current wait ends, and close() waits it out: for subscriptions off the money path
   * whose handler seldom fails (the dead-letter archive, payout's stand-by wake-up). Redis Streams
   * ignores it: its reads already block until records arrive or a hand-over wakes them.
   */
  idleReadWaitMs?: number;
  /**
   * A stand-by subscription (its records matter only when something else failed, like payout's
   * wake-up behind its LISTEN): each read gathers records for up to this long before it answers,
   * so a busy topic costs one read, and one acknowledgement per partition, per `gatherMs` instead
   * of one per handful of records. Records reach the handler up to this late. Kafka: the fetch
   * asks the broker for 1 MiB (it answers when they are there or `gatherMs` has
   * passed), so the long poll of an idle member is `gatherMs` too and `idleReadWaitMs` is not
   * used. Redis Streams: a read that returned records is followed by the next one `gatherMs`
   * later (at once if a stream had more waiting than one read takes); an idle read still blocks
   * until records arrive. Default 0: records
   * are read as they arrive (the money path).
   */
  gatherMs?: number;
}

/** The Kafka fetch's long poll unless a subscription says otherwise: a resumed partition waits at most this. */
export const DEFAULT_IDLE_READ_WAIT_MS = 1_000;

/** The long poll of subscriptions that can afford to be read later after a retry (see SubscribeOptions.idleReadWaitMs). */
export const RELAXED_IDLE_READ_WAIT_MS = 5_000;

/** How long a stand-by subscription gathers records before a read answers (SubscribeOptions.gatherMs). */
export const STANDBY_GATHER_MS = 1_000;

/** What checkTopics found wrong; both empty when every topic is as expected. */
export interface TopicCheck {
  /** Topics the broker does not have (with Kafka in production, nothing creates them on first use). */
  missing: string[];
  /** Topics with another partition count than the transport expects (per-key order follows the partition count). */
  wrongPartitions: { topic: string; expected: number; actual: number }[];
}

export interface BusTransport {
  /** Resolves only when the broker has durably accepted every record (Redis: XADD returned; Kafka: acks=-1). */
  publish(topic: string, records: OutgoingRecord[]): Promise<void>;
  /**
   * Consumer-group semantics: each record is handled by one member of `group` and acknowledged only after the
   * handler resolves. Records with the same key are handled in order, one at a time; different keys may run
   * concurrently. A handler failing for a transient reason (a dependency away) is retried for as long as it takes;
   * a record that can never succeed goes to `${topic}.dlq` at once, one failing with an unknown error after
   * `maxDeliveries` (see delivery.policy.ts).
   */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /**
   * Why a subscription has stopped consuming for good, or null. A service is not ready while this
   * is set, and exits (its orchestrator restarts it).
   */
  failure(): Error | null;
  /**
   * Which of `topics` the broker lacks or has with another partition count than configured. Throws when the
   * broker cannot be asked. Redis Streams: nothing to check (a stream is made by its first record).
   */
  checkTopics(topics: readonly string[]): Promise<TopicCheck>;
  /** Records each subscription's group has yet to consume, asked of the broker (Kafka only: the lag gauge). */
  consumerLag?(): Promise<ConsumerLag[]>;
  close(): Promise<void>;
}

export interface ConsumerLag {
  topic: string;
  group: string;
  lag: number;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/** Headers added to a dead-lettered record (original headers are kept). */
export const DLQ_HEADERS = {
  error: 'x-dlq-error',
  /** permanent (can never succeed) or unknown (kept failing with an unclassified error) */
  fault: 'x-dlq-fault',
  /** ISO time the record was dead-lettered */
  at: 'x-dlq-at',
  originalId: 'x-dlq-original-id',
  originalTopic: 'x-dlq-original-topic',
  group: 'x-dlq-group',
  deliveryCount: 'x-dlq-delivery-count',
} as const;
