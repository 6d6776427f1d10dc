import { type BusConsumerMetrics, busConsumerMetrics } from '@pay/platform';
import { Registry } from 'prom-client';
import { uniqueName, waitFor } from '../testing/bus-transport.contract';
import { kafkaHarness } from '../testing/kafka-test.harness';
import { KafkaTransport } from './kafka.transport';

const kafkaBrokers = process.env.KAFKA_BROKERS ?? '';

/** The consumer metrics of ledger, payout and workers, wired as their *.app.ts do, read as /metrics would. */
(kafkaBrokers ? describe : describe.skip)('Kafka consumer metrics against a real broker', () => {
  const brokers = kafkaBrokers.split(',').map((b) => b.trim());
  const h = kafkaHarness(brokers);
  afterEach(() => h.dispose());

  async function value(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
    const metric = await registry.getSingleMetric(name)?.get();
    return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
  }

  function member(metrics: BusConsumerMetrics): KafkaTransport {
    const transport = new KafkaTransport(
      { brokers, clientId: uniqueName('metrics'), createTopics: true, partitions: 12, sessionTimeoutMs: 10_000 },
      { onRebalance: metrics.onRebalance, onCrash: metrics.onCrash },
    );
    return transport;
  }

  test('bus_consumer_lag counts what the group has not consumed; bus_consumer_rebalances_total counts group joins', async () => {
    const topic = h.topic('kafka.metrics');
    const group = uniqueName('metrics-group');
    const labels = { topic, group };
    const registry = new Registry();
    const metrics = busConsumerMetrics(registry, { lagCacheMs: 0 });
    const first = member(metrics);
    metrics.measureLag(() => first.consumerLag());
    let gate: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (gate = resolve));
    let handled = 0;
    let second: KafkaTransport | undefined;
    const handler = async (): Promise<void> => {
      await held;
      handled++;
    };
    try {
      await first.subscribe({ topic, group, handler });
      expect(await value(registry, 'bus_consumer_rebalances_total', labels)).toBe(1);
      // Right after the topic is made the broker may answer NOT_LEADER for a moment: the gauge shows nothing until it can.
      await waitFor('a lag of 0', async () => (await value(registry, 'bus_consumer_lag', labels)) === 0, h.waitMs);

      await h.transport().publish(
        topic,
        Array.from({ length: 5 }, (_, i) => ({ key: 'merchant-1', value: JSON.stringify({ i }) })),
      );
      await waitFor(
        'lag of 5 while the handler is held',
        async () => (await value(registry, 'bus_consumer_lag', labels)) === 5,
        h.waitMs,
      );
      gate();
      await waitFor('all handled', () => handled === 5, h.waitMs);
      await waitFor('lag back to 0', async () => (await value(registry, 'bus_consumer_lag', labels)) === 0, h.waitMs);

      // A second member: the group rebalances, both join again (1 + 2 joins at least), nothing crashed.
      second = member(metrics);
      await second.subscribe({ topic, group, handler });
      await waitFor(
        'the first member rejoined',
        async () => ((await value(registry, 'bus_consumer_rebalances_total', labels)) ?? 0) >= 3,
        h.waitMs,
      );
      expect(await value(registry, 'bus_consumer_crashes_total', { ...labels, restart: 'false' })).toBeUndefined();
    } finally {
      gate();
      await second?.close();
      await first.close();
    }
  }, 120_000);
});
