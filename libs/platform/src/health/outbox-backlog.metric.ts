import { Gauge, type Registry } from 'prom-client';
import type { WarnLogger } from '../logging/throttled-warn';
import { scrapeRead } from './scrape-read';

/** Unpublished outbox rows of one topic (PgOutboxStore.backlog). */
export interface OutboxTopicBacklog {
  topic: string;
  rows: number;
  oldestAgeSeconds: number;
}

export interface OutboxBacklogOptions {
  /** Topics always reported (0 when nothing waits), so an alert sees them before their first backlog. */
  topics: readonly string[];
  logger: WarnLogger;
  /** A scrape within this long of the last query reuses its answer (several Prometheus replicas, several processes). */
  cacheMs?: number;
}

/**
 * `outbox_backlog{topic}` (unpublished rows) and `outbox_oldest_age_seconds{topic}` (age of the
 * oldest), read from the outbox at scrape time through one grouped query on its partial index,
 * at most once per `cacheMs`. A backlog that grows, or an oldest age beyond a minute, means a topic
 * the relay cannot publish (see the README's outbox runbook). When the database cannot be asked,
 * the last values stay and a warning is logged.
 */
export function outboxBacklogMetric(
  registry: Registry,
  source: { backlog(): Promise<OutboxTopicBacklog[]> },
  options: OutboxBacklogOptions,
): void {
  const known = new Set(options.topics);
  const update = scrapeRead(
    () => source.backlog(),
    (rows) => {
      const byTopic = new Map(rows.map((r) => [r.topic, r]));
      for (const r of rows) known.add(r.topic);
      for (const topic of known) {
        backlog.set({ topic }, byTopic.get(topic)?.rows ?? 0);
        oldest.set({ topic }, byTopic.get(topic)?.oldestAgeSeconds ?? 0);
      }
    },
    {
      logger: options.logger,
      warning: 'outbox metrics: could not read the backlog; keeping the last values',
      cacheMs: options.cacheMs,
    },
  );
  // prom-client awaits collect() on each scrape; both gauges share one (cached) read.
  const backlog = new Gauge({
    name: 'outbox_backlog',
    help: 'Outbox rows not yet published to the bus, by topic',
    labelNames: ['topic'],
    registers: [registry],
    collect: update,
  });
  const oldest = new Gauge({
    name: 'outbox_oldest_age_seconds',
    help: 'Age in seconds of the oldest outbox row not yet published, by topic (0 when none waits)',
    labelNames: ['topic'],
    registers: [registry],
    collect: update,
  });
}
