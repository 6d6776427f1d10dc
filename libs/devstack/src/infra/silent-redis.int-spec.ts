import { randomBytes } from 'node:crypto';
import { RedisStreamsTransport } from '@pay/bus';
import { createLogger, failFastRedis } from '@pay/platform';
import Redis from 'ioredis';
import { waitFor } from '@pay/testing';
import { SilentRelay } from './silent-relay';

// Redis connections in a failover whose old primary drops packets and closes nothing (decision
// 0015): the connections open go quiet for good, while new ones would reach the new primary. Each
// connection must give the quiet one up by itself; the relay never cuts it.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

describe('a Redis that goes silent in a failover', () => {
  let relay: SilentRelay;
  beforeEach(async () => {
    relay = await SilentRelay.start(REDIS_URL);
  });
  afterEach(() => relay.stop());

  it('a request-path connection gives the silent one up and answers again through a new one', async () => {
    const redis = failFastRedis(relay.url, createLogger('spec', 'fatal'), 'spec-silent-redis');
    try {
      await waitFor(async () => redis.status === 'ready', 5_000, 'the connection');
      expect(await redis.ping()).toBe('PONG');
      relay.failover();
      await expect(redis.ping()).rejects.toThrow('Command timed out');
      // Without a socket timeout every command times out for as long as TCP keeps the dead connection.
      await waitFor(
        async () => (await redis.ping().catch(() => '')) === 'PONG',
        25_000,
        'a PONG through a new connection',
      );
    } finally {
      redis.disconnect();
    }
  });

  it("the bus's blocked read and its commands move to a new connection, and a record published meanwhile is handled", async () => {
    const prefix = `silent_${randomBytes(3).toString('hex')}:`;
    const options = {
      keyPrefix: prefix,
      partitions: 2,
      blockMs: 1_000,
      leaseTtlMs: 60_000,
      heartbeatIntervalMs: 1_000,
    };
    const consumer = new RedisStreamsTransport({ ...options, redisUrl: relay.url });
    const producer = new RedisStreamsTransport({ ...options, redisUrl: REDIS_URL });
    const handled: string[] = [];
    try {
      await consumer.subscribe({
        topic: 'silent',
        group: 'g',
        handler: async (record) => void handled.push(record.value),
      });
      await producer.publish('silent', [{ key: 'k', value: 'before' }]);
      await waitFor(async () => handled.includes('before'), 10_000, 'the record published before');
      relay.failover();
      await producer.publish('silent', [{ key: 'k', value: 'after' }]);
      // The blocked read's connection is given up 1 s (its block) + 15 s after its last answer, then read again.
      await waitFor(async () => handled.includes('after'), 35_000, 'the record published after the failover');
      expect(handled).toEqual(['before', 'after']);
    } finally {
      relay.thaw(); // cuts the quiet connections, so that closing never waits on one (when the test fails)
      await Promise.all([consumer.close(), producer.close()]);
      const admin = new Redis(REDIS_URL);
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    }
  }, 60_000);
});
