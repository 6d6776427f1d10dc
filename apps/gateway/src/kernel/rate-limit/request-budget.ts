import type { AuthenticatedMerchant } from '@pay/persistence';
import type { FastifyReply } from 'fastify';
import type { RateLimitClass } from './rate-limit.class';
import type { RateLimiter } from './rate-limiter';

/**
 * One request's budget of a rate-limit class, for a service that decides part-way through whether
 * the request spends it (ReconExportService: only a new export does). The face builds it on its
 * reply, so the service never sees HTTP; the headers and the 429 are the RateLimiter's.
 */
export interface RequestBudget {
  /** Spends one request of the class, or refuses it (429 RATE_LIMITED with Retry-After) */
  spend(): Promise<void>;
  /** Refuses the request for a limit kept elsewhere (429 RATE_LIMITED with Retry-After) */
  refuse(retryAfterSeconds: number, message: string): never;
}

export function requestBudget(
  limiter: RateLimiter,
  merchant: Pick<AuthenticatedMerchant, 'id' | 'rateLimits'>,
  cls: RateLimitClass,
  reply: FastifyReply,
): RequestBudget {
  return {
    spend: () => limiter.enforce(merchant, cls, reply),
    refuse: (retryAfterSeconds, message) => limiter.refuse(cls, reply, retryAfterSeconds, message),
  };
}
