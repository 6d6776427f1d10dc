import { Registry } from 'prom-client';
import { busConsumerMetrics } from './bus-consumer.metric';

async function values(
  registry: Registry,
  name: string,
): Promise<{ labels: Partial<Record<string, string | number>>; value: number }[]> {
  return (await registry.getSingleMetric(name)?.get())?.values ?? [];
}

describe('busConsumerMetrics', () => {
  it('asks for the lag at most once per lagCacheMs, and keeps the last answer when the broker cannot answer', async () => {
    const registry = new Registry();
    const metrics = busConsumerMetrics(registry, { lagCacheMs: 60_000 });
    let reads = 0;
    metrics.measureLag(async () => [{ topic: 't', group: 'g', lag: 7 * ++reads }]);
    expect(await values(registry, 'bus_consumer_lag')).toEqual([{ labels: { topic: 't', group: 'g' }, value: 7 }]);
    expect(await values(registry, 'bus_consumer_lag')).toEqual([{ labels: { topic: 't', group: 'g' }, value: 7 }]);
    expect(reads).toBe(1);

    let fail = false;
    const uncached = new Registry();
    const failing = busConsumerMetrics(uncached, { lagCacheMs: 0 });
    failing.measureLag(async () => {
      if (fail) throw new Error('broker away');
      return [{ topic: 't', group: 'g', lag: 3 }];
    });
    expect((await values(uncached, 'bus_consumer_lag'))[0]?.value).toBe(3);
    fail = true;
    expect((await values(uncached, 'bus_consumer_lag'))[0]?.value).toBe(3);
  });

  it('does not hold a scrape longer than lagTimeoutMs', async () => {
    const registry = new Registry();
    const metrics = busConsumerMetrics(registry, { lagCacheMs: 0, lagTimeoutMs: 50 });
    metrics.measureLag(() => new Promise(() => undefined)); // a broker that never answers
    const started = Date.now();
    expect(await values(registry, 'bus_consumer_lag')).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('counts rebalances and crashes by topic, group and restart', async () => {
    const registry = new Registry();
    const metrics = busConsumerMetrics(registry);
    metrics.onRebalance({ topic: 't', group: 'g' });
    metrics.onRebalance({ topic: 't', group: 'g' });
    metrics.onCrash({ topic: 't', group: 'g', restart: true });
    metrics.onCrash({ topic: 't', group: 'g', restart: false });
    expect(await values(registry, 'bus_consumer_rebalances_total')).toEqual([
      { labels: { topic: 't', group: 'g' }, value: 2 },
    ]);
    expect((await values(registry, 'bus_consumer_crashes_total')).map((v) => [v.labels.restart, v.value])).toEqual([
      ['true', 1],
      ['false', 1],
    ]);
  });
});
