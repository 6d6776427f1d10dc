import { bool, positiveInt } from '@pay/platform';
import { z } from 'zod';
import type { RateLimitDefaults } from './rate-limit.class';

/**
 * The gateway's rate-limit settings (docs/decisions/0017-rate-limits.md). The per-class limits are
 * defaults: a merchant's own limits (admin CLI `merchant set-rate-limits`) replace them.
 */
export const rateLimitEnvShape = {
  RATE_LIMIT_ENABLED: bool()
    .default(true)
    .meta({ description: 'Off only to rule the limiter out while investigating; every merchant is then unlimited' }),
  RATE_LIMIT_READ_PER_SECOND: positiveInt().max(100_000).default(100).meta({
    description:
      'Balance, QRIS and disbursement status reads, recon status checks: requests per second (and burst) per merchant',
  }),
  RATE_LIMIT_WRITE_PER_SECOND: positiveInt()
    .max(100_000)
    .default(50)
    .meta({ description: 'QRIS codes, account inquiries, transfers: requests per second (and burst) per merchant' }),
  RATE_LIMIT_EXPORT_PER_MINUTE: positiveInt().max(100_000).default(10).meta({
    description: 'New recon exports (a status check of an existing one is a read): per minute (and burst) per merchant',
  }),
  RATE_LIMIT_REDIS_TIMEOUT_MS: positiveInt().max(5_000).default(100).meta({
    description: "How long a request waits for the limiter's Redis before it is served unlimited (fail open)",
  }),
  RATE_LIMIT_READ_CONCURRENCY: z.coerce.number().int().min(0).max(10_000).default(10).meta({
    description:
      'Read requests of one merchant in flight at once in one gateway replica; one more answers 429 RATE_LIMITED. 0: no cap',
  }),
  RATE_LIMIT_REFUSAL_DELAY_MS: z.coerce.number().int().min(0).max(1_000).default(250).meta({
    description:
      'How long after it is decided a 429 is sent (a looping client then sends one request per connection per this); 0: at once',
  }),
  RECON_EXPORT_MAX_OUTSTANDING: positiveInt().max(1_000).default(3).meta({
    description: 'Recon exports one merchant may have queued or running at once; one more answers 429 RATE_LIMITED',
  }),
};

export interface RateLimitConfig extends RateLimitDefaults {
  enabled: boolean;
  /** How long a request waits for the limiter's Redis before it is served unlimited */
  redisTimeoutMs: number;
  /** One merchant's reads in flight in this replica (0: no cap) */
  readConcurrency: number;
  /** How long after it is decided a 429 is sent (0: at once) */
  refusalDelayMs: number;
  /** Recon exports one merchant may have queued or running at once */
  maxOutstandingExports: number;
}

/** The typed settings of rateLimitEnvShape (the gateway's `rateLimits`). */
export function rateLimitSection(env: z.output<z.ZodObject<typeof rateLimitEnvShape>>): RateLimitConfig {
  return {
    enabled: env.RATE_LIMIT_ENABLED,
    readPerSecond: env.RATE_LIMIT_READ_PER_SECOND,
    writePerSecond: env.RATE_LIMIT_WRITE_PER_SECOND,
    exportPerMinute: env.RATE_LIMIT_EXPORT_PER_MINUTE,
    redisTimeoutMs: env.RATE_LIMIT_REDIS_TIMEOUT_MS,
    readConcurrency: env.RATE_LIMIT_READ_CONCURRENCY,
    refusalDelayMs: env.RATE_LIMIT_REFUSAL_DELAY_MS,
    maxOutstandingExports: env.RECON_EXPORT_MAX_OUTSTANDING,
  };
}
