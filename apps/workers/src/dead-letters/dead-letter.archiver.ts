import {
  type BusTransport,
  deadLetterTopic,
  DLQ_HEADERS,
  type IncomingRecord,
  RELAXED_IDLE_READ_WAIT_MS,
  type Subscription,
} from '@pay/bus';
import { ConsumerGroup, Topic } from '@pay/contracts';
import type { ArchivedRecord, DeadLetterRepository } from '@pay/persistence';
import { type Logger, throttledWarn, TransientError } from '@pay/platform';
import { Gauge, type Registry } from 'prom-client';

/** Every topic whose consumers may dead-letter: each has a `<topic>.dlq`. */
const TOPICS: readonly string[] = Object.values(Topic);

/**
 * Reads every `<topic>.dlq` (group `dead-letter-archive.<topic>`: one group per DLQ topic, as
 * Kafka needs every member of a group to subscribe the same topics; three consumers of three
 * topics in one group were assigned each other's partitions and left them unread) into the
 * dead_letters table, where the
 * admin CLI and the ops API list, show, replay and resolve them. Transport-agnostic: the same on
 * Redis Streams and Kafka. Archiving never dead-letters: any failure (the database away) is
 * retried until it succeeds, so a dead letter cannot be lost on its way to the operators.
 * Also serves `dead_letters_open{topic}`, read from the table at each scrape.
 */
/** The archive's consumer group of one DLQ topic. */
export const archiveGroup = (topic: string): string => `${ConsumerGroup.DeadLetterArchive}.${topic}`;

export class DeadLetterArchiver {
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly transport: BusTransport,
    private readonly repository: DeadLetterRepository,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    for (const topic of TOPICS) {
      this.subscriptions.push(
        // Dead letters are rare and an archive retried a few seconds later is fine: three idle members read once per 5 s, not every second.
        await this.transport.subscribe({
          topic: deadLetterTopic(topic),
          group: archiveGroup(topic),
          handler: (record) => this.archive(record),
          idleReadWaitMs: RELAXED_IDLE_READ_WAIT_MS,
        }),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.close()));
  }

  /** Read at each scrape; while the database cannot answer, the last values stay and a warning is logged. */
  registerMetrics(registry: Registry): void {
    const repository = this.repository;
    const warn = throttledWarn(
      this.logger,
      'dead letter metrics: could not count the open dead letters; keeping the last values',
    );
    new Gauge({
      name: 'dead_letters_open',
      help: 'Dead letters archived and neither replayed nor resolved, by original topic (alert when > 0)',
      labelNames: ['topic'],
      registers: [registry],
      async collect() {
        const counts = new Map(TOPICS.map((t) => [t, 0]));
        try {
          for (const { topic, open } of await repository.countOpen()) counts.set(topic, open);
        } catch (error) {
          warn(error);
          return;
        }
        for (const [topic, open] of counts) this.set({ topic }, open);
      },
    });
  }

  private async archive(record: IncomingRecord): Promise<void> {
    try {
      const fresh = await this.repository.archive(toArchived(record));
      if (fresh)
        this.logger.error(
          {
            dlqTopic: record.topic,
            id: record.id,
            key: record.key,
            originalTopic: record.headers[DLQ_HEADERS.originalTopic],
          },
          'dead letter archived; see `admin dlq list`',
        );
    } catch (error) {
      throw new TransientError('could not archive a dead letter; retrying', { cause: error });
    }
  }
}

/** Postgres text cannot hold NUL; such a value was never processable anyway, it is kept readable. */
const text = (value: string): string => value.replaceAll('\u0000', '\uFFFD');

export function toArchived(record: IncomingRecord): ArchivedRecord {
  const h = record.headers;
  const at = new Date(h[DLQ_HEADERS.at] ?? '');
  return {
    dlqTopic: record.topic,
    dlqRecordId: record.id,
    topic: h[DLQ_HEADERS.originalTopic] ?? record.topic.replace(/\.dlq$/, ''),
    originalId: h[DLQ_HEADERS.originalId] ?? '',
    consumerGroup: h[DLQ_HEADERS.group] ?? '',
    key: text(record.key),
    value: text(record.value),
    headers: Object.fromEntries(Object.entries(h).map(([name, value]) => [text(name), text(value)])),
    fault: h[DLQ_HEADERS.fault] ?? 'unknown',
    error: text(h[DLQ_HEADERS.error] ?? ''),
    deliveryCount: Number(h[DLQ_HEADERS.deliveryCount] ?? 0) || 0,
    deadLetteredAt: Number.isNaN(at.getTime()) ? new Date() : at,
  };
}
