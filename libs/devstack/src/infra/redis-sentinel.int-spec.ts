import { randomBytes } from 'node:crypto';
import { RedisStreamsTransport } from '@pay/bus';
import { createLogger, createRedis, failFastRedis } from '@pay/platform';
import { waitFor } from '@pay/testing';
import { PrivateSentinel } from './private-sentinel';

// REDIS_URL naming Sentinels (redis+sentinel://): the services connect to the primary the
// Sentinels name, and after a failover to the new one, with no restart and no new setting.
describe('Redis behind Sentinel, through a failover', () => {
  let ha: PrivateSentinel;
  beforeAll(async () => {
    ha = await PrivateSentinel.start();
  }, 30_000);
  afterAll(() => ha?.destroy());

  const port = async (redis: ReturnType<typeof createRedis>) =>
    Number(/tcp_port:(\d+)/.exec(await redis.info('server'))?.[1]);

  it('a request-path connection and a background one write to the primary, then to the new one after a failover', async () => {
    const requestPath = failFastRedis(ha.url, createLogger('spec', 'fatal'), 'spec-sentinel');
    // As the workers' BullMQ connection: commands wait through the failover instead of failing.
    const background = createRedis(ha.url, { maxRetriesPerRequest: null }).on('error', () => undefined);
    try {
      await waitFor(
        async () => requestPath.status === 'ready' && background.status === 'ready',
        10_000,
        'the connections',
      );
      const first = await ha.primaryPort();
      expect(await port(requestPath)).toBe(first);
      await requestPath.set('sentinel:before', '1');
      expect(await background.get('sentinel:before')).toBe('1');
      // Replication is asynchronous: SENTINEL FAILOVER promotes the replica with what it has
      // received, so the write is known to be on the replica (WAIT) before the failover begins.
      expect(await requestPath.call('WAIT', '1', '5000')).toBe(1);

      await ha.failover();
      const second = await ha.primaryPort();
      expect(second).not.toBe(first);
      // The request path fails fast while the old primary's connection goes, then writes to the new one.
      await waitFor(
        async () => (await requestPath.set('sentinel:after', '2').catch(() => null)) === 'OK',
        20_000,
        'a write through the request-path connection',
      );
      expect(await port(requestPath)).toBe(second);
      // The background connection's command waited for the new primary; the data replicated before the failover is there.
      expect(await background.incr('sentinel:counter')).toBe(1);
      expect(await port(background)).toBe(second);
      expect(await background.get('sentinel:before')).toBe('1');
    } finally {
      requestPath.disconnect();
      background.disconnect();
    }
  }, 60_000);

  it('the Redis Streams bus consumes a record published after a failover', async () => {
    const prefix = `sentinel_${randomBytes(3).toString('hex')}:`;
    const options = {
      keyPrefix: prefix,
      partitions: 2,
      blockMs: 1_000,
      leaseTtlMs: 60_000,
      heartbeatIntervalMs: 1_000,
      redisUrl: ha.url,
    };
    const consumer = new RedisStreamsTransport(options);
    const producer = new RedisStreamsTransport(options);
    const handled: string[] = [];
    try {
      await consumer.subscribe({ topic: 'ha', group: 'g', handler: async (record) => void handled.push(record.value) });
      await producer.publish('ha', [{ key: 'k', value: 'before' }]);
      await waitFor(async () => handled.includes('before'), 10_000, 'the record published before');
      await ha.failover();
      await waitFor(
        async () =>
          await producer.publish('ha', [{ key: 'k', value: 'after' }]).then(
            () => true,
            () => false,
          ),
        20_000,
        'a publish to the new primary',
      );
      await waitFor(async () => handled.includes('after'), 30_000, 'the record published after the failover');
      expect(handled[0]).toBe('before');
    } finally {
      await Promise.all([consumer.close(), producer.close()]);
    }
  }, 90_000);
});
