import { IncomingRecord } from '../transport/bus-transport.interface';
import { delay, waitFor } from '../testing/bus-transport.contract';
import { redisHarness, RedisTestHarness } from '../testing/redis-test.harness';
import { renewLeases } from './lease.scripts';

/** The services' own timings: the default (long) read block, a 10 s lease renewed every 2.5 s. */
const SERVICE_TIMINGS = { blockMs: undefined, leaseTtlMs: 10_000, heartbeatIntervalMs: 2_500 };

describe('RedisStreamsTransport: an idle member blocks long yet answers at once', () => {
  let h: RedisTestHarness;

  beforeEach(() => {
    h = redisHarness();
  });

  afterEach(async () => {
    await h.dispose();
  });

  it('handles a record published while its read is blocked at once', async () => {
    const topic = h.topic('idle-wake');
    const handled: { record: IncomingRecord; at: number }[] = [];
    await h.crashableTransport(SERVICE_TIMINGS).transport.subscribe({
      topic,
      group: 'g',
      handler: async (record) => void handled.push({ record, at: Date.now() }),
    });
    await delay(1_500); // the reader is blocked by now
    const publishedAt = Date.now();
    await h.transport().publish(topic, [{ key: 'k', value: 'v' }]);
    await waitFor('the record', () => handled.length === 1, 5_000);
    expect(handled[0].record.value).toBe('v');
    expect(handled[0].at - publishedAt).toBeLessThan(500);
  });

  it('closes in well under a second while its read is blocked', async () => {
    const topic = h.topic('idle-close');
    const sub = await h
      .crashableTransport(SERVICE_TIMINGS)
      .transport.subscribe({ topic, group: 'g', handler: async () => undefined });
    await delay(1_500);
    const started = Date.now();
    await sub.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('hands partitions to a member that joins without waiting out the first member’s blocked read', async () => {
    const topic = h.topic('idle-rebalance');
    const handledBy = new Map<string, string[]>([
      ['first', []],
      ['second', []],
    ]);
    const subscribe = (member: string) =>
      h.crashableTransport(SERVICE_TIMINGS).transport.subscribe({
        topic,
        group: 'g',
        consumerName: member,
        handler: async (r) => void handledBy.get(member)?.push(r.key),
      });
    await subscribe('first');
    await delay(1_500);
    const joinedAt = Date.now();
    await subscribe('second');
    // The first member's next heartbeat (<= 2.5 s) releases half the partitions and ends its read; the second takes them on its next.
    await waitFor(
      'the second member to own partitions',
      async () =>
        (await h.admin.keys(`${h.prefix}_bus:lease:${topic}:g:*`)).length === 12 &&
        (await leasesOf(h, topic, 'second')) === 6,
      8_000,
    );
    expect(Date.now() - joinedAt).toBeLessThan(6_000);
    const keys = Array.from({ length: 24 }, (_, i) => `key-${i}`);
    await h.transport().publish(
      topic,
      keys.map((key) => ({ key, value: key })),
    );
    await waitFor('all records', () => [...handledBy.values()].flat().length === 24, 5_000);
    expect(handledBy.get('second')?.length).toBeGreaterThan(0);
    expect([...handledBy.values()].flat().sort()).toEqual([...keys].sort());
  });

  it('renews, in one call, exactly the leases the member still holds', async () => {
    const key = (n: number) => `${h.prefix}lease-test:${n}`;
    await h.admin.set(key(0), 'me', 'PX', 1_000);
    await h.admin.set(key(1), 'someone-else', 'PX', 1_000);
    expect(await renewLeases(h.admin, [key(0), key(1), key(2)], 'me', 60_000)).toEqual([true, false, false]);
    expect(await h.admin.pttl(key(0))).toBeGreaterThan(50_000);
    expect(await h.admin.pttl(key(1))).toBeLessThanOrEqual(1_000);
    expect(await h.admin.exists(key(2))).toBe(0);
    expect(await renewLeases(h.admin, [], 'me', 60_000)).toEqual([]);
  });
});

async function leasesOf(h: RedisTestHarness, topic: string, member: string): Promise<number> {
  const keys = await h.admin.keys(`${h.prefix}_bus:lease:${topic}:g:*`);
  const owners = keys.length ? await h.admin.mget(...keys) : [];
  return owners.filter((o) => o?.startsWith(`${member}-`)).length;
}
