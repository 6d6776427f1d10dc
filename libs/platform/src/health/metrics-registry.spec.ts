import { createMetricsRegistry } from './readiness';

const ACTIVE = 'nodejs_eventloop_active_seconds_total';

async function activeSeconds(registry: ReturnType<typeof createMetricsRegistry>): Promise<number> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${ACTIVE}{`));
  if (!line) throw new Error(`${ACTIVE} is not exported`);
  return Number(line.split(' ').pop());
}

function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // keeps the event loop busy, as a handler that never yields would
  }
}

describe('createMetricsRegistry: event-loop activity', () => {
  it('counts the time the loop spent running callbacks, so its rate is the loop utilisation', async () => {
    const registry = createMetricsRegistry('test');
    const before = await activeSeconds(registry);
    busyFor(300);
    await new Promise((resolve) => setImmediate(resolve)); // the busy callback ends; the loop accounts it
    const after = await activeSeconds(registry);
    expect(after - before).toBeGreaterThanOrEqual(0.25);
    expect(after - before).toBeLessThan(5);
  });

  it('never goes backwards between scrapes (a counter), and two registries count on their own', async () => {
    const a = createMetricsRegistry('a');
    const b = createMetricsRegistry('b');
    const first = await activeSeconds(a);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await activeSeconds(a);
    expect(second).toBeGreaterThanOrEqual(first);
    expect(await activeSeconds(b)).toBeGreaterThan(0);
  });
});
