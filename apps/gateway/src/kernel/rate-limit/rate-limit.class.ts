import type { MerchantRateLimits } from '@pay/persistence';

/** Endpoint classes, each with its own per-merchant budget (README "Rate limits"). */
export type RateLimitClass = keyof MerchantRateLimits;

export interface RateLimitPolicy {
  /** Requests allowed in a window, which is also the burst a merchant idle for a window may send at once */
  limit: number;
  windowSeconds: number;
}

/** The gateway's default limit of each class (RATE_LIMIT_*): requests per window, which is also the burst. */
export interface RateLimitDefaults {
  readPerSecond: number;
  writePerSecond: number;
  exportPerMinute: number;
}

/** The merchant's policy for a class: its own limit when set, otherwise the gateway's default. */
export function policyFor(cls: RateLimitClass, own: MerchantRateLimits, defaults: RateLimitDefaults): RateLimitPolicy {
  switch (cls) {
    case 'read':
      return { limit: own.read ?? defaults.readPerSecond, windowSeconds: 1 };
    case 'write':
      return { limit: own.write ?? defaults.writePerSecond, windowSeconds: 1 };
    case 'export':
      return { limit: own.export ?? defaults.exportPerMinute, windowSeconds: 60 };
  }
}
