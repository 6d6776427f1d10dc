import type { MerchantAuthRepository } from '@pay/persistence';
import type { FastifyInstance } from 'fastify';
import { authenticateToken, MERCHANT_API_PREFIX, tokenHashOf } from './merchant-token';
import type { RecentTokens } from './recent-tokens';
import { rateLimitClassOf } from '../../rate-limit/rate-limit.decorator';
import type { RateLimiter } from '../../rate-limit/rate-limiter';

/**
 * At most `limit` read requests of one merchant in flight in this gateway replica, beside the rate
 * limit (Stripe runs a concurrent-requests limiter next to its request-rate limiter for the same
 * reason): the rate limit lets a merchant spend its whole bucket at once, and a hundred balance
 * reads in flight together queue for the replica's database connections ahead of every other
 * merchant. One more is 429 RATE_LIMITED with Retry-After: 1 (and, like every 429, answered late).
 * Reads take milliseconds, so an integration that waits for its answers never comes near it.
 * Checked before the token lookup when the token authenticated recently (RecentTokens), else
 * right after it (the lookup is memoised per request, so the token check does not repeat it);
 * a token that does not authenticate is left to the token check's 401.
 */
export function registerReadConcurrencyLimit(
  fastify: FastifyInstance,
  opts: { limit: number; recent: RecentTokens; tokens: MerchantAuthRepository; limiter: RateLimiter },
): void {
  if (opts.limit <= 0) return;
  const inFlight = new Map<number, number>();
  const leave = (merchantId: number) => {
    const left = (inFlight.get(merchantId) ?? 1) - 1;
    if (left > 0) inFlight.set(merchantId, left);
    else inFlight.delete(merchantId);
  };
  fastify.addHook('onRequest', async (req, reply) => {
    // API tokens only: a dashboard read (/dashboard/api) has its session, not a token, and is rate-limited by its session guard.
    if (rateLimitClassOf(req) !== 'read' || !req.routeOptions.url?.startsWith(MERCHANT_API_PREFIX)) return;
    const tokenHash = tokenHashOf(req);
    if (!tokenHash) return;
    let merchantId = opts.recent.merchantOf(tokenHash);
    if (merchantId === undefined) {
      try {
        merchantId = (await authenticateToken(req, opts.tokens)).id;
      } catch {
        return;
      }
    }
    const busy = inFlight.get(merchantId) ?? 0;
    if (busy >= opts.limit)
      opts.limiter.refuse(
        'read',
        reply,
        1,
        `Too many read requests at once: at most ${opts.limit} in flight; retry after 1 s`,
      );
    inFlight.set(merchantId, busy + 1);
    const id = merchantId;
    // 'close' comes once the answer is sent or the client has gone, whichever happens.
    reply.raw.once('close', () => leave(id));
  });
}
