import { createRedis, type Logger, redisSocketTimeout, throttledWarn } from '@pay/platform';
import type Redis from 'ioredis';

/** How long start-up waits for a limiter's Redis; past it the gateway starts anyway. */
const STARTUP_WAIT_MS = 2_000;

/**
 * A limiter's own Redis connection: it never queues behind other Redis work, fails a command
 * after `commandTimeoutMs` instead of queueing it while disconnected, and says so (throttled) on
 * connection errors. `onError`: what the warning tells the reader happens meanwhile.
 */
export function createLimiterRedis(
  url: string,
  opts: { name: string; commandTimeoutMs: number; lazy?: boolean; logger: Logger; onError: string },
): Redis {
  const redis = createRedis(url, {
    connectionName: opts.name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs,
    // A command times out, but the socket stays: this gives up on a Redis gone silent (decision 0015).
    socketTimeout: redisSocketTimeout(),
    connectTimeout: STARTUP_WAIT_MS,
    lazyConnect: opts.lazy ?? false,
    // Requests sent in the same event-loop turn leave in one write and their answers come back in
    // one read, instead of a syscall pair each.
    enableAutoPipelining: true,
  });
  redis.on('error', throttledWarn(opts.logger, opts.onError));
  return redis;
}

/**
 * Waits a little for Redis, so the first requests after start-up find it. Never fails: a slow or
 * absent Redis (its connection's errors, e.g. a ready check over a short command timeout on a
 * loaded machine) must not stop the gateway from starting. Not `events.once(redis, 'ready')`:
 * that rejects on the first 'error' event.
 */
export async function waitForLimiterRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return;
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  redis.once('ready', onReady);
  let timeout: NodeJS.Timeout | undefined;
  const timer = new Promise<void>((resolve) => (timeout = setTimeout(resolve, STARTUP_WAIT_MS).unref()));
  await Promise.race([ready, timer]);
  clearTimeout(timeout);
  redis.off('ready', onReady);
}
