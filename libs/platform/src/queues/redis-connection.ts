import Redis from 'ioredis';
import type { Logger } from 'pino';
import { waitForDependency } from '../bootstrap/wait-for-dependency';
import { warnOnError } from '../logging/throttled-warn';

const REQUEST_PATH_TIMEOUT_MS = 2000;

/**
 * Two kinds of Redis connection. BullMQ's (workers: `maxRetriesPerRequest: null`, as BullMQ
 * needs on a blocking connection) queue commands while ioredis reconnects, forever, and run
 * them when Redis is back: right for background work, never for a request. A request path
 * uses this one instead:
 *
 * A connection for work a request waits on (the gateway's queue producer, readiness checks):
 * while Redis is away a command fails at once (no offline queue) or after 2 s (a silent peer),
 * so the request answers 503 instead of hanging. ioredis keeps reconnecting in the background
 * (every 50 ms, backing off to 2 s) and the next command after Redis is back succeeds.
 */
export function failFastRedis(redisUrl: string, logger: Logger, name: string): Redis {
  const redis = new Redis(redisUrl, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REQUEST_PATH_TIMEOUT_MS,
    connectTimeout: REQUEST_PATH_TIMEOUT_MS,
  });
  return warnOnError(redis, logger, `redis (${name})`);
}

/** One connection, one PING, closed: start-up's probe, which sees the real error (refused, wrong password). */
export async function pingRedisOnce(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: REQUEST_PATH_TIMEOUT_MS });
  redis.on('error', () => undefined); // the rejection below carries it
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** Readiness: Redis answers PING, on a fail-fast connection of its own (never queued behind a blocked or offline one). */
export function redisReadinessCheck(redisUrl: string, logger: Logger, name: string): { name: string; check(): Promise<void>; close(): void } {
  const redis = failFastRedis(redisUrl, logger, name);
  return { name: 'redis', check: async () => void (await redis.ping()), close: () => redis.disconnect() };
}

/** Start-up: waits for Redis (warn line per attempt); a refused password fails at once. */
export function waitForRedis(redisUrl: string, logger: Logger): Promise<void> {
  return waitForDependency('redis', () => pingRedisOnce(redisUrl), { logger });
}
