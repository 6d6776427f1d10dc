import { RedisStreamsTransport } from '@pay/bus';
import { uniqueName, waitFor } from '@pay/testing';
import { BusProbe } from './bus-probe';

/** The chaos run kills a consumer while it holds records and checks every group caught up: both read what the real bus keeps. */
describe('BusProbe on Redis Streams', () => {
  const redisUrl = process.env.TEST_REDIS_URL as string;
  const keyPrefix = `${process.env.TEST_REDIS_PREFIX}${uniqueName('probe')}:`;
  const bus = new RedisStreamsTransport({ redisUrl, keyPrefix, partitions: 2, blockMs: 100 });
  const probe = new BusProbe({ transport: 'redis-streams', redisUrl, keyPrefix, partitions: 2 });
  const consumption = { group: 'g', topic: uniqueName('chaos.probe'), service: 'ledger' as const };

  afterAll(async () => {
    await bus.close();
    await probe.close();
  });

  it('counts the records a process holds in its handler, by pid, and 0 once they are acknowledged', async () => {
    expect(await probe.unacknowledged(consumption)).toBe(0); // no stream, no group yet
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    await bus.subscribe({ topic: consumption.topic, group: consumption.group, handler: () => gate });
    await bus.publish(consumption.topic, [
      { key: 'merchant-1', value: '{}' },
      { key: 'merchant-2', value: '{}' },
    ]);
    await waitFor(
      async () => (await probe.unacknowledged(consumption, process.pid)) > 0,
      10_000,
      'records in the handler',
    );
    expect(await probe.unacknowledged(consumption, process.pid + 1)).toBe(0);

    release();
    await waitFor(async () => (await probe.unacknowledged(consumption)) === 0, 10_000, 'records acknowledged');
    expect(await probe.unacknowledged(consumption, process.pid)).toBe(0);
  });
});
