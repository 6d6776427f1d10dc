import type { MerchantRateLimits } from '@pay/persistence';

/** Endpoint classes, each with its own per-merchant budget (README "Rate limits"). */
export type RateLimitClass = keyof MerchantRateLimits;

export interface RateLimitPolicy {
  /** Requests allowed in a window, which is also the burst a merchant idle for a window may send at once */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDefaults {
  RATE_LIMIT_READ_PER_SECOND: number;
  RATE_LIMIT_WRITE_PER_SECOND: number;
  RATE_LIMIT_EXPORT_PER_MINUTE: number;
}

/** The merchant's policy for a class: its own limit when set, otherwise the gateway's default. */
export function policyFor(cls: RateLimitClass, own: MerchantRateLimits, defaults: RateLimitDefaults): RateLimitPolicy {
  switch (cls) {
    case 'read':
      return { limit: own.read ?? defaults.RATE_LIMIT_READ_PER_SECOND, windowSeconds: 1 };
    case 'write':
      return { limit: own.write ?? defaults.RATE_LIMIT_WRITE_PER_SECOND, windowSeconds: 1 };
    case 'export':
      return { limit: own.export ?? defaults.RATE_LIMIT_EXPORT_PER_MINUTE, windowSeconds: 60 };
  }
}
