import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { waitForDependency } from '../bootstrap/wait-for-dependency';
import { warnOnError } from '../logging/throttled-warn';
import { createRedis } from './redis-url';

const REQUEST_PATH_TIMEOUT_MS = 2000;

/**
 * A Redis connection that has had a command waiting this long with nothing read is counted dead:
 * ioredis destroys the socket (its `socketTimeout`), rejects what waited on it, and reconnects.
 * That is a Redis gone silent (a failover whose old primary drops packets, closing nothing),
 * which would otherwise hold the connection until TCP gave up, about a quarter of an hour later.
 * A connection whose commands block (a stream read, BullMQ's wait for a job) gets its longest
 * block on top (redisSocketTimeout). Docs: docs/decisions/0015.
 */
export const REDIS_SOCKET_TIMEOUT_MS = 15_000;

/** BullMQ blocks a worker's connection at most 10 s at a time (its `maximumBlockTimeout` for Redis). */
export const BULLMQ_MAX_BLOCK_MS = 10_000;

/** `socketTimeout` for a connection whose commands block up to `blockMs`: that, plus REDIS_SOCKET_TIMEOUT_MS. */
export function redisSocketTimeout(blockMs = 0): number {
  return blockMs + REDIS_SOCKET_TIMEOUT_MS;
}

/**
 * Two kinds of Redis connection. BullMQ's (workers: `maxRetriesPerRequest: null`, as BullMQ
 * needs on a blocking connection) queue commands while ioredis reconnects, forever, and run
 * them when Redis is back: right for background work, never for a request. A request path
 * uses this one instead:
 *
 * A connection for work a request waits on (the gateway's queue producer, readiness checks):
 * while Redis is away a command fails at once (no offline queue) or after 2 s (a silent peer),
 * so the request answers 503 instead of hanging; a peer silent for 15 s loses the connection,
 * which is made again, to wherever REDIS_URL now points. ioredis keeps reconnecting in the background
 * (every 50 ms, backing off to 2 s) and the next command after Redis is back succeeds.
 */
export function failFastRedis(redisUrl: string, logger: Logger, name: string): Redis {
  const redis = createRedis(redisUrl, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REQUEST_PATH_TIMEOUT_MS,
    connectTimeout: REQUEST_PATH_TIMEOUT_MS,
    // A command times out after 2 s, but the socket stays: this one gives up on it (a silent Redis).
    socketTimeout: redisSocketTimeout(),
  });
  return warnOnError(redis, logger, `redis (${name})`);
}

/** One connection, one PING, closed: start-up's probe, which sees the real error (refused, wrong password). */
export async function pingRedisOnce(redisUrl: string): Promise<void> {
  const redis = createRedis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: REQUEST_PATH_TIMEOUT_MS,
  });
  redis.on('error', () => undefined); // the rejection below carries it
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** Readiness: Redis answers PING, on a fail-fast connection of its own (never queued behind a blocked or offline one). */
export function redisReadinessCheck(
  redisUrl: string,
  logger: Logger,
  name: string,
): { name: string; check(): Promise<void>; close(): void } {
  const redis = failFastRedis(redisUrl, logger, name);
  return { name: 'redis', check: async () => void (await redis.ping()), close: () => redis.disconnect() };
}

/** Start-up: waits for Redis (warn line per attempt); a refused password fails at once. */
export function waitForRedis(redisUrl: string, logger: Logger): Promise<void> {
  return waitForDependency('redis', () => pingRedisOnce(redisUrl), { logger });
}
