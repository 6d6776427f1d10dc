import type { FastifyInstance } from 'fastify';
import { MERCHANT_API_PREFIX, tokenHashOf } from './merchant-token';
import type { RecentTokens } from './recent-tokens';
import { rateLimitClassOf } from '../../rate-limit/rate-limit.decorator';
import type { RateLimiter } from '../../rate-limit/rate-limiter';

/**
 * A merchant at its limit is refused before its token is looked up: when the token recently
 * authenticated (RecentTokens) and the merchant's class for the route is at its limit
 * (RateLimiter.admit), the request answers the same 429 (headers, body, counter) at once, with
 * no database, no Redis and no Nest pipeline, so a flood of refused requests costs little CPU.
 * Register it before registerMerchantTokenCheck. Nothing is served on this path: a token revoked
 * in the last RECENT_TOKEN_TTL_MS may get this 429 instead of a 401 while its merchant is over
 * the limit, never a 200. The connection stays open, as for any 429.
 */
export function registerLocalRefusal(fastify: FastifyInstance, recent: RecentTokens, limiter: RateLimiter): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    if (!limiter.contended || !req.routeOptions.url?.startsWith(MERCHANT_API_PREFIX)) return done();
    const cls = rateLimitClassOf(req);
    const tokenHash = cls && tokenHashOf(req);
    const merchantId = tokenHash && recent.merchantOf(tokenHash);
    if (!cls || !merchantId) return done();
    let waiting;
    try {
      waiting = limiter.admit(merchantId, cls, reply);
    } catch (err) {
      return done(err as Error);
    }
    if (!waiting) return done();
    waiting.then(() => done(), done);
  });
}
