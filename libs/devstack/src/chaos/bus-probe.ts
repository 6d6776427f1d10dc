import { hostname } from 'node:os';
import { consumerGroupLag, deadLetterTopic } from '@pay/bus';
import { ConsumerGroup, Topic } from '@pay/contracts';
import { createRedis } from '@pay/platform';
import type { Redis } from 'ioredis';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import type { ServiceName } from '../stack/local-stack';

export interface Consumption {
  group: string;
  topic: string;
  /** The service whose processes are the group's members */
  service: Exclude<ServiceName, 'gateway'>;
}

/** Every group the services run and the topic it reads (the apps' BusServer and the dead-letter archiver). */
export const CONSUMPTIONS: readonly Consumption[] = [
  { group: ConsumerGroup.Ledger, topic: Topic.LedgerCommands, service: 'ledger' },
  { group: ConsumerGroup.Payout, topic: Topic.LedgerEvents, service: 'payout' },
  ...Object.values(Topic).map((t) => ({
    group: ConsumerGroup.DeadLetterArchive,
    topic: deadLetterTopic(t),
    service: 'workers' as const,
  })),
];

/** `brokers`: host:port of every broker, comma-separated (KAFKA_BROKERS). */
export type ProbedBus =
  | { transport: 'redis-streams'; redisUrl: string; keyPrefix: string; partitions: number }
  | { transport: 'kafka'; brokers: string };

/**
 * Looks at the bus from outside the services: records a group has been handed and not yet
 * acknowledged. On Redis Streams that is the group's pending entries (XPENDING), which can be
 * told apart by process (consumer names start with `<host>-<pid>-`); on Kafka it is the
 * group's lag (end offsets minus committed offsets), which kafkajs commits only after the
 * handler resolved.
 */
export class BusProbe {
  private redis: Redis | undefined;
  private admin: Admin | undefined;

  constructor(readonly bus: ProbedBus) {}

  /** Unacknowledged records of `c`'s group, only those held by process `pid` when the bus can tell (Redis Streams). */
  async unacknowledged(c: Consumption, pid?: number): Promise<number> {
    if (this.bus.transport === 'kafka') {
      const admin = await this.kafkaAdmin();
      try {
        return await consumerGroupLag(admin, c.topic, c.group);
      } catch (err) {
        // A broker that went away leaves the admin unusable: a new one next time.
        this.admin = undefined;
        await admin.disconnect().catch(() => undefined);
        throw err;
      }
    }
    const { keyPrefix, partitions } = this.bus;
    // The chaos run restarts this Redis while the probe is connected: a failed probe is retried by its caller, the
    // reconnect errors in between are expected, not news.
    this.redis ??= createRedis(this.bus.redisUrl, { maxRetriesPerRequest: 3 }).on('error', () => undefined);
    const pipeline = this.redis.pipeline();
    for (let p = 0; p < partitions; p++) pipeline.xpending(`${keyPrefix}${c.topic}:${p}`, c.group);
    const owner = pid === undefined ? undefined : `${hostname()}-${pid}-`;
    let total = 0;
    for (const [err, summary] of (await pipeline.exec()) ?? []) {
      // No stream or no group yet (NOGROUP): nothing pending there.
      if (err) continue;
      const [count, , , consumers] = summary as [number, string | null, string | null, [string, string][] | null];
      if (owner === undefined) total += Number(count);
      else for (const [name, n] of consumers ?? []) if (name.startsWith(owner)) total += Number(n);
    }
    return total;
  }

  /** Every group/topic whose backlog is not 0, with its count. */
  async backlog(): Promise<{ group: string; topic: string; records: number }[]> {
    const left: { group: string; topic: string; records: number }[] = [];
    for (const c of CONSUMPTIONS) {
      const records = await this.unacknowledged(c);
      if (records !== 0) left.push({ group: c.group, topic: c.topic, records });
    }
    return left;
  }

  /** Records in each Kafka `*.dlq` topic (the archiver copies them into dead_letters); {} on Redis Streams, whose dlq streams are read directly. */
  async deadLetterTopicRecords(): Promise<Record<string, number>> {
    if (this.bus.transport !== 'kafka') return {};
    const admin = await this.kafkaAdmin();
    const counts: Record<string, number> = {};
    for (const topic of Object.values(Topic).map(deadLetterTopic)) {
      const n = (await admin.fetchTopicOffsets(topic)).reduce((s, p) => s + Number(p.high) - Number(p.low), 0);
      if (n) counts[topic] = n;
    }
    return counts;
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
    await this.admin?.disconnect().catch(() => undefined);
  }

  private async kafkaAdmin(): Promise<Admin> {
    if (this.bus.transport !== 'kafka') throw new Error('not a Kafka bus');
    if (!this.admin) {
      const admin = new Kafka({
        brokers: this.bus.brokers.split(','),
        clientId: 'chaos-probe',
        logLevel: logLevel.NOTHING,
        connectionTimeout: 2_000,
        retry: { retries: 2 },
      }).admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }
}
