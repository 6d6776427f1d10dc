import { readFile } from 'node:fs/promises';
import {
  Admin,
  Consumer,
  ISocketFactory,
  Kafka,
  KafkaConfig,
  logLevel,
  PartitionAssigners,
  Partitioners,
  Producer,
  SASLOptions,
} from 'kafkajs';
import { deadLetter, type DeadLetterListener, type DeadLetterReason } from '../delivery/dead-letter';
import { kafkaLogCreator } from './kafka-log';
import { onePartitionPerSend } from './one-partition-per-send';
import { coalesceKafkaOffsetCommits } from './kafkajs-offset-commits';
import { quietKafkaRequestQueues } from './kafkajs-request-queue';
import { mskIamTokenProvider } from './msk-iam';
import { type KafkaNames, kafkaNames } from './kafka-names';
import { checkKafkaTopics, createTopicsAndWait } from './kafka-topics';
import { BusLogger, noopLogger } from '../logging/bus-logger.interface';
import { DEFAULT_DELIVERY_POLICY, DeliveryPolicy, RetryBackoff } from '../delivery/delivery.policy';
import {
  BusTransport,
  ConsumerLag,
  deadLetterTopic,
  DEFAULT_IDLE_READ_WAIT_MS,
  IncomingRecord,
  OutgoingRecord,
  SubscribeOptions,
  Subscription,
  TopicCheck,
} from '../transport/bus-transport.interface';
import { subscribedRoundRobin } from './kafka-assigner';
import { KafkaBatchConsumer } from './kafka-batch.consumer';
import { consumerGroupLag } from './kafka-lag';

// kafkajs's idle connections would otherwise each wake the process every millisecond (decision
// 0028), and the batches of one fetch each commit every resolved offset (decision 0028). Applied
// when the bus loads, before any kafkajs client of the process is made: the services'
// transports, and the admin and test clients beside them.
quietKafkaRequestQueues();
coalesceKafkaOffsetCommits();

/** What a gathering fetch (SubscribeOptions.gatherMs) asks for before the broker answers early: far more than a stand-by topic brings in `gatherMs`. */
const GATHER_MIN_BYTES = 1024 * 1024;

export type KafkaSaslOptions =
  | { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string }
  /** The token is read from the file on every authentication, so a token the platform rotates is picked up. */
  | { mechanism: 'oauthbearer'; tokenFile: string }
  /** AWS MSK IAM: a token signed with the AWS SDK's default credentials, made on every authentication. */
  | { mechanism: 'aws-msk-iam'; region: string };

/** PEM texts: a private CA to trust, a client certificate and key for mutual TLS. */
export interface KafkaTlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized?: boolean;
}

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  ssl?: boolean | KafkaTlsOptions;
  sasl?: KafkaSaslOptions;
  /** Put before every topic (and .dlq) and every group name on the cluster; code and handlers see the logical names. */
  topicPrefix?: string;
  groupPrefix?: string;
  /** Creates topics (and their .dlq) on first use: for tests and local stacks, not production. */
  createTopics?: boolean;
  /** Partition count for topics this transport creates. */
  partitions?: number;
  replicationFactor?: number;
  maxDeliveries?: number;
  retryBackoff?: RetryBackoff;
  /** Partitions a member works concurrently (each still strictly in order). */
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
  /** How long a request to the broker may take before it is retried (kafkajs's default: 30 s). */
  requestTimeoutMs?: number;
  /** TCP and TLS connect (kafkajs's default: 1 s). */
  connectionTimeoutMs?: number;
  /** The SASL exchange (kafkajs's default: 10 s). */
  authenticationTimeoutMs?: number;
}

export interface KafkaTransportDeps {
  logger?: BusLogger;
  /** Told of every record dead-lettered (the services count them in a metric). */
  onDeadLetter?: DeadLetterListener;
  /** The sockets to the brokers (kafkajs's own by default); tests inject network faults through it. */
  socketFactory?: ISocketFactory;
  /** Told once when a consumer has stopped for good (see failure()); the services exit on it. */
  onFailure?: (error: Error) => void;
  /** Told each time a consumer (re)joins its group: a rebalance (the services count them). */
  onRebalance?: (event: ConsumerEvent) => void;
  /** Told of every consumer crash, whether kafkajs restarts it or not (the services count them). */
  onCrash?: (event: ConsumerEvent & { restart: boolean; error: Error }) => void;
}

export interface ConsumerEvent {
  topic: string;
  group: string;
}

function toSasl(sasl: KafkaSaslOptions | undefined): SASLOptions | undefined {
  if (!sasl) return undefined;
  if (sasl.mechanism === 'oauthbearer') {
    const { tokenFile } = sasl;
    return {
      mechanism: 'oauthbearer',
      oauthBearerProvider: async () => ({ value: (await readFile(tokenFile, 'utf8')).trim() }),
    };
  }
  if (sasl.mechanism === 'aws-msk-iam')
    return { mechanism: 'oauthbearer', oauthBearerProvider: mskIamTokenProvider(sasl.region) };
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username, password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** The longest wait between two attempts to subscribe while the broker is away at start-up. */
const START_RETRY_MAX_MS = 5_000;

/** Broker answers no retry or replacement fixes: credentials, rights, a setting the broker refuses. */
const MISCONFIGURATION =
  /AUTHORIZATION_FAILED|SASL|AUTHENTICATION|INVALID_SESSION_TIMEOUT|INVALID_GROUP_ID|UNSUPPORTED_|INVALID_CONFIG/;

/** True when the error, or any cause under it, is a refusal for misconfiguration (kafkajs puts the protocol error in `type`). */
export function isKafkaMisconfiguration(error: unknown): boolean {
  for (
    let e = error as { name?: string; type?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 10;
    e = e.cause as typeof e, depth++
  ) {
    if (MISCONFIGURATION.test(`${e.name ?? ''} ${e.type ?? ''}`)) return true;
    if (/session timeout is not within the range|not authorized/i.test(e.message ?? '')) return true;
  }
  return false;
}

export class KafkaTransport implements BusTransport {
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly onDeadLetter?: DeadLetterListener;
  private readonly onFailure?: (error: Error) => void;
  private readonly listeners: Pick<KafkaTransportDeps, 'onRebalance' | 'onCrash'>;
  private failed: Error | null = null;
  private readonly policy: DeliveryPolicy;
  /** Each running consumer with what it consumes (for close() and the lag). */
  private readonly consumers = new Map<Consumer, ConsumerEvent>();
  private readonly knownTopics = new Set<string>();
  private readonly names: KafkaNames;
  /** Made on first use, and anew after every failed send (see publish). */
  private producer: { client: Producer; ready: Promise<void> } | null = null;
  private admin: Promise<Admin> | null = null;
  private closing = false;

  constructor(
    private readonly options: KafkaTransportOptions,
    deps: KafkaTransportDeps = {},
  ) {
    this.logger = deps.logger ?? noopLogger;
    this.onDeadLetter = deps.onDeadLetter;
    this.onFailure = deps.onFailure;
    this.listeners = { onRebalance: deps.onRebalance, onCrash: deps.onCrash };
    this.policy = {
      maxDeliveries: options.maxDeliveries ?? DEFAULT_DELIVERY_POLICY.maxDeliveries,
      backoff: options.retryBackoff ?? DEFAULT_DELIVERY_POLICY.backoff,
    };
    this.names = kafkaNames(options);
    const config: KafkaConfig = {
      brokers: options.brokers,
      clientId: options.clientId,
      ssl: options.ssl,
      sasl: toSasl(options.sasl),
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator(this.logger),
      connectionTimeout: options.connectionTimeoutMs,
      authenticationTimeout: options.authenticationTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      socketFactory: deps.socketFactory,
    };
    this.kafka = new Kafka(config);
  }

  async publish(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    this.assertOpen();
    await this.ensureTopic(topic);
    const producer = await this.connectedProducer();
    try {
      // One send per partition, side by side (kafkajs sends one request at a time per broker): see onePartitionPerSend.
      await Promise.all(
        onePartitionPerSend(records, this.options.partitions ?? 12).map((group) =>
          producer.send({
            topic: this.names.topic(topic),
            acks: -1,
            messages: group.map((r) => ({ key: r.key, value: r.value, headers: r.headers ?? {} })),
          }),
        ),
      );
    } catch (error) {
      this.replaceProducer(producer);
      throw error;
    }
  }

  /**
   * Subscribes, and waits for the broker to do so: a service that starts during a broker outage
   * (a restart, a failover, a pod rescheduled meanwhile) waits for it, as it does for PostgreSQL,
   * instead of exiting when kafkajs gives up its retries. A refusal no retry fixes (credentials,
   * rights) still throws at once.
   */
  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    const which = { topic: opts.topic, group: opts.group };
    for (let attempt = 1; ; attempt++) {
      this.assertOpen();
      try {
        return await this.subscribeOnce(opts, which);
      } catch (error) {
        if (this.closing || isKafkaMisconfiguration(error)) throw error;
        const retryInMs = Math.min(500 * 2 ** (attempt - 1), START_RETRY_MAX_MS);
        this.logger.warn({ ...which, attempt, retryInMs, err: errorText(error) }, 'waiting for kafka at start-up');
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
      }
    }
  }

  private async subscribeOnce(opts: SubscribeOptions, which: ConsumerEvent): Promise<Subscription> {
    await this.ensureTopic(opts.topic);
    await this.connectedProducer(); // needed for dead-lettering
    const abort = new AbortController();
    const batches = new KafkaBatchConsumer(
      {
        subscription: opts,
        policy: this.policy,
        logger: this.logger,
        deadLetter: (record, reason) => this.deadLetter(record, opts.group, reason),
      },
      abort.signal,
    );
    const member: { consumer: Consumer | null; replacements: number } = { consumer: null, replacements: 0 };

    // A member kafkajs gave up on after a broker outage is replaced by a new one (same group, committed offsets).
    const replace = (): void => {
      const delay = Math.min(10_000, 500 * 2 ** Math.min(member.replacements++, 5));
      setTimeout(() => {
        if (abort.signal.aborted || this.closing) return;
        this.startMember(opts, which, batches, abort.signal, replace)
          .then((consumer) => {
            member.consumer = consumer;
            member.replacements = 0;
            this.logger.warn(which, 'kafka consumer replaced after kafkajs gave up on it');
          })
          .catch((error: unknown) => {
            this.logger.warn({ ...which, err: errorText(error) }, 'kafka consumer could not be replaced yet; retrying');
            replace();
          });
      }, delay).unref();
    };
    member.consumer = await this.startMember(opts, which, batches, abort.signal, replace);
    this.logger.info(which, 'bus subscribed (kafka)');
    return {
      close: async () => {
        abort.abort();
        const consumer = member.consumer;
        if (!consumer) return;
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /** One group member: connected, subscribed, running, and joined (or crashed) before it returns. */
  private async startMember(
    opts: SubscribeOptions,
    which: ConsumerEvent,
    batches: KafkaBatchConsumer,
    signal: AbortSignal,
    replace: () => void,
  ): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: this.names.group(opts.group),
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      allowAutoTopicCreation: false,
      // A resumed partition is fetched from the next fetch on, after the broker's long poll of the
      // current one: kafkajs's 5 s would add up to 5 s to every retry (kafka-batch.consumer.ts),
      // unless the subscription can afford it (SubscribeOptions.idleReadWaitMs).
      maxWaitTimeInMs: opts.gatherMs || (opts.idleReadWaitMs ?? DEFAULT_IDLE_READ_WAIT_MS),
      // A stand-by subscription: the broker holds each fetch for gatherMs unless this much is waiting.
      minBytes: opts.gatherMs ? GATHER_MIN_BYTES : 1,
      partitionAssigners: [subscribedRoundRobin, PartitionAssigners.roundRobin],
    });
    // Resolves on the first join, or on a crash before it (subscribe must not wait out the timeout then).
    let started: () => void = () => undefined;
    const joinedOrCrashed = new Promise<void>((resolve) => (started = resolve));
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      batches.onAssignment(payload.memberAssignment);
      this.listeners.onRebalance?.(which);
      started();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      started();
      if (signal.aborted || this.closing) return; // our own shutdown
      this.listeners.onCrash?.({ ...which, restart: payload.restart, error: payload.error });
      if (payload.restart) {
        this.logger.warn({ ...which, err: errorText(payload.error) }, 'kafka consumer crashed; kafkajs restarts it');
      } else if (isKafkaMisconfiguration(payload.error)) {
        this.onCrash(opts, payload.error);
      } else {
        // kafkajs stops for good after errors it wraps as non-retriable though the broker was only away ("Failed to find
        // group coordinator" after a broker restart, seen in the chaos run): an outage, not a reason to exit.
        this.logger.warn(
          { ...which, err: errorText(payload.error) },
          'kafka consumer stopped by kafkajs (broker away); replacing it',
        );
        this.consumers.delete(consumer);
        replace();
      }
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic: this.names.topic(opts.topic), fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? this.options.partitions ?? 12,
        // Offsets are resolved record by record (kafka-batch.consumer.ts); kafkajs commits the resolved ones after each batch.
        eachBatchAutoResolve: false,
        eachBatch: (payload) => batches.eachBatch(payload),
      });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined); // a member that never ran: it leaves before the next attempt
      throw error;
    }
    this.consumers.set(consumer, which);
    await Promise.race([joinedOrCrashed, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    return consumer;
  }

  /** Records each subscription's group has not committed yet (kafka-lag.ts); asks the broker every call. */
  async consumerLag(): Promise<ConsumerLag[]> {
    const subscriptions = [...this.consumers.values()];
    if (subscriptions.length === 0 || this.closing) return [];
    const admin = await this.connectedAdmin();
    return Promise.all(
      subscriptions.map(async ({ topic, group }) => ({
        topic,
        group,
        lag: await consumerGroupLag(admin, this.names.topic(topic), this.names.group(group)),
      })),
    );
  }

  failure(): Error | null {
    return this.failed;
  }

  /**
   * A consumer refused for a reason no retry fixes (authentication, authorization, a session
   * timeout the broker does not accept) is gone for good; nothing would say so, and the service
   * kept answering ready while consuming nothing. It fails readiness and the service exits.
   */
  private onCrash(opts: SubscribeOptions, error: Error): void {
    const context = { topic: opts.topic, group: opts.group, err: { name: error.name, message: error.message } };
    if (this.failed) return;
    this.failed = new Error(
      `kafka consumer of ${opts.topic} (group ${opts.group}) stopped for good: ${error.name}: ${error.message}`,
    );
    this.logger.error(context, 'kafka consumer CRASHED for good; not ready, exiting');
    this.onFailure?.(this.failed);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all([...this.consumers.keys()].map((c) => c.disconnect()));
    this.consumers.clear();
    await this.producer?.client.disconnect();
    await (await this.admin?.catch(() => null))?.disconnect();
  }

  private deadLetter(record: IncomingRecord, group: string, reason: DeadLetterReason): Promise<void> {
    return deadLetter(
      (topic, records) => this.publish(topic, records),
      this.logger,
      { record, group, reason },
      this.onDeadLetter,
    );
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      // Idempotent + one request in flight: broker-side dedup of retries and no reordering within a partition.
      const client = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
      });
      const ready = client.connect();
      this.producer = { client, ready };
      ready.catch(() => {
        if (this.producer?.client === client) this.producer = null;
      });
    }
    const { client, ready } = this.producer;
    await ready;
    return client;
  }

  /**
   * After a failed send the next one goes through a new producer (a new producer id, sequence
   * numbers from 0). kafkajs rolls a partition's sequence number back when a send fails, yet the
   * broker may have written the batch and only the answer was lost: the next batch with the same
   * numbers is then dropped by the broker as a duplicate (real records lost, the send "succeeds"),
   * or refused as OUT_OF_ORDER_SEQUENCE_NUMBER for good (the partition wedged). Both seen on a real
   * broker: kafka.transport.int-spec.ts. What the lost answer had written is delivered twice, which
   * the consumers' de-duplication absorbs.
   */
  private replaceProducer(failed: Producer): void {
    if (this.producer?.client !== failed) return; // a concurrent failure replaced it already
    this.producer = null;
    failed
      .disconnect()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'kafka producer disconnect after a failed send'));
  }

  /** For readiness: asks the broker (listTopics, metadata) through the admin client. */
  async checkTopics(topics: readonly string[]): Promise<TopicCheck> {
    this.assertOpen();
    // Names as the cluster has them (with KAFKA_TOPIC_PREFIX): what an operator must create.
    return checkKafkaTopics(
      await this.connectedAdmin(),
      topics.map((t) => this.names.topic(t)),
      this.options.partitions ?? 12,
    );
  }

  /** One admin client, made on first use; made anew next time if connecting failed (the broker away). */
  private connectedAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      const connecting = admin.connect().then(() => admin);
      this.admin = connecting;
      connecting.catch(() => {
        if (this.admin === connecting) this.admin = null;
      });
    }
    return this.admin;
  }

  private async ensureTopic(topic: string): Promise<void> {
    if (!this.options.createTopics || this.knownTopics.has(topic)) return;
    const admin = await this.connectedAdmin();
    const numPartitions = this.options.partitions ?? 12;
    const replicationFactor = this.options.replicationFactor ?? 1;
    await createTopicsAndWait(
      admin,
      [topic, deadLetterTopic(topic)]
        .filter((t) => !t.endsWith('.dlq.dlq'))
        .map((t) => ({ topic: this.names.topic(t), numPartitions, replicationFactor })),
    );
    this.knownTopics.add(topic);
    this.knownTopics.add(deadLetterTopic(topic));
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('bus transport is closed');
  }
}
