import Redis from 'ioredis';
import {
  RedisConnectionRole,
  RedisStreamsTransport,
  RedisStreamsTransportOptions,
} from '../redis-streams/redis-streams.transport';
import { TransportHarness, uniqueName } from './bus-transport.contract';

export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** Short timings so takeovers and retries happen within a test's budget. */
export const fastRedisOptions = (keyPrefix: string): RedisStreamsTransportOptions => ({
  redisUrl: TEST_REDIS_URL,
  keyPrefix,
  partitions: 12,
  blockMs: 100,
  leaseTtlMs: 600,
  heartbeatIntervalMs: 100,
  retryBackoff: { initialMs: 20, maxMs: 100 },
});

export interface RedisTestHarness extends TransportHarness {
  prefix: string;
  admin: Redis;
  /** Transport whose connections the test can cut, to simulate a crashed process. */
  crashableTransport(options?: Partial<RedisStreamsTransportOptions>): {
    transport: RedisStreamsTransport;
    crash(): void;
  };
}

export function redisHarness(): RedisTestHarness {
  const prefix = `${uniqueName('bustest')}:`;
  const admin = new Redis(TEST_REDIS_URL);
  const transports: RedisStreamsTransport[] = [];
  const options = fastRedisOptions(prefix);

  const unacknowledged = async (topic: string, group: string): Promise<number> => {
    let total = 0;
    for (let p = 0; p < (options.partitions ?? 12); p++) {
      try {
        const summary: unknown = await admin.call('XPENDING', `${prefix}${topic}:${p}`, group);
        if (Array.isArray(summary)) total += Number(summary[0]);
      } catch (error) {
        if (!(error instanceof Error && error.message.includes('NOGROUP'))) throw error;
      }
    }
    return total;
  };

  return {
    prefix,
    admin,
    settleMs: 500,
    waitMs: 10_000,
    topic: (base) => uniqueName(base),
    transport(overrides = {}) {
      const transport = new RedisStreamsTransport({ ...options, ...overrides });
      transports.push(transport);
      return transport;
    },
    crashableTransport(overrides = {}) {
      const connections: Redis[] = [];
      const transport = new RedisStreamsTransport(
        { ...options, ...overrides },
        {
          createConnection: (url: string, _role: RedisConnectionRole, name: string) => {
            const connection = new Redis(url, { connectionName: name });
            connections.push(connection);
            return connection;
          },
        },
      );
      transports.push(transport);
      // disconnect() drops the sockets without QUIT and without reconnecting: no lease release, no heartbeat.
      return { transport, crash: () => connections.forEach((c) => c.disconnect()) };
    },
    unacknowledged,
    async dispose() {
      await Promise.all(transports.splice(0).map((t) => t.close()));
      let cursor = '0';
      do {
        const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await admin.del(...keys);
      } while (cursor !== '0');
      await admin.quit();
    },
  };
}
