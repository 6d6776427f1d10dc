import type { ConnectionOptions } from 'bullmq';

/** BullMQ connection options from a redis:// URL (lazy: the gateway starts without Redis and reports it in /readyz). */
export function redisConnection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    db: Number(url.pathname.slice(1) || 0),
    username: url.username || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    lazyConnect: true,
    maxRetriesPerRequest: null,
  };
}
