import { Counter, Gauge, type Registry } from 'prom-client';
import { waitAtMost } from '../loops/timeouts';

interface ConsumerLabels {
  topic: string;
  group: string;
}

export interface BusConsumerMetricsOptions {
  /** The broker is asked for the lag at most this often; scrapes in between get the last answer. */
  lagCacheMs?: number;
  /** A scrape waits at most this long for a fresh answer, then shows the last one (/metrics stays fast). */
  lagTimeoutMs?: number;
}

export interface BusConsumerMetrics {
  /** For the transport's deps: each (re)join of a consumer group. */
  onRebalance(event: ConsumerLabels): void;
  /** For the transport's deps: each consumer crash, restarted by kafkajs or not. */
  onCrash(event: ConsumerLabels & { restart: boolean }): void;
  /** Where the lag gauge reads from (the transport's consumerLag; Kafka only). */
  measureLag(read: () => Promise<(ConsumerLabels & { lag: number })[]>): void;
}

/**
 * `bus_consumer_lag{topic,group}` (records not yet consumed by this process's groups),
 * `bus_consumer_rebalances_total{topic,group}` and `bus_consumer_crashes_total{topic,group,restart}`.
 * A lag that keeps growing means a partition is stuck (a record retried, paused, while a dependency
 * is away) or the consumers are too few; frequent rebalances mean members come and go.
 */
export function busConsumerMetrics(registry: Registry, options: BusConsumerMetricsOptions = {}): BusConsumerMetrics {
  const { lagCacheMs = 15_000, lagTimeoutMs = 2_000 } = options;
  const rebalances = new Counter({
    name: 'bus_consumer_rebalances_total',
    help: 'Times a bus consumer of this process joined its group (at start and after every rebalance)',
    labelNames: ['topic', 'group'],
    registers: [registry],
  });
  const crashes = new Counter({
    name: 'bus_consumer_crashes_total',
    help: 'Bus consumer crashes in this process; restart="false": consuming stopped for good (the process exits)',
    labelNames: ['topic', 'group', 'restart'],
    registers: [registry],
  });
  let read: (() => Promise<(ConsumerLabels & { lag: number })[]>) | null = null;
  let last: (ConsumerLabels & { lag: number })[] = [];
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  const refresh = (source: NonNullable<typeof read>): Promise<void> =>
    (reading ??= source()
      .then((readings) => {
        last = readings;
        readAt = Date.now();
      })
      // The broker away: keep the last readings (and try again on the next scrape); never fail /metrics.
      .catch(() => undefined)
      .finally(() => {
        reading = null;
      }));
  new Gauge({
    name: 'bus_consumer_lag',
    help: 'Records of the topic its consumer group has not committed yet (asked of the broker at most every 15 s)',
    labelNames: ['topic', 'group'],
    registers: [registry],
    async collect() {
      if (read && Date.now() - readAt >= lagCacheMs) await waitAtMost(refresh(read), lagTimeoutMs);
      this.reset();
      for (const { topic, group, lag } of last) this.set({ topic, group }, lag);
    },
  });
  return {
    onRebalance: ({ topic, group }) => rebalances.inc({ topic, group }),
    onCrash: ({ topic, group, restart }) => crashes.inc({ topic, group, restart: String(restart) }),
    measureLag: (source) => {
      read = source;
    },
  };
}
