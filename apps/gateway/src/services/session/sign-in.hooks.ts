import { type Logger, throttledWarn } from '@pay/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PasswordHasher } from './password-hasher';
import { RetryLaterError } from './retry-later.error';

/** The routes that hash or verify a password for an anonymous caller. */
const PASSWORD_ROUTES = new Set([
  '/dashboard/api/session',
  '/console/api/session',
  '/dashboard/api/password',
  '/console/api/password',
]);

const isPasswordRoute = (req: FastifyRequest) =>
  req.method === 'POST' && PASSWORD_ROUTES.has(req.routeOptions.url ?? '');

/**
 * While the password hashing pool and its queue are full, a sign-in or set-password request is
 * refused at once (429 RATE_LIMITED, Retry-After: 1) when its headers are in: before its body is
 * read, before Redis, the database and the Nest pipeline. A flood then costs the event loop
 * little more than its connections, and pages and API calls are served beside it. The service
 * checks again (PasswordHasher.checkRoom): room may run out after this hook.
 */
export function registerHashingShed(fastify: FastifyInstance, hasher: PasswordHasher): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    if (!isPasswordRoute(req)) return done();
    try {
      hasher.checkRoom();
    } catch (err) {
      if (err instanceof RetryLaterError) void reply.header('Retry-After', String(err.retryAfterSeconds));
      return done(err as Error);
    }
    done();
  });
}

/**
 * With no TRUSTED_PROXIES, a sign-in that came through a proxy (it carries X-Forwarded-For) is
 * counted under the proxy's address: every client behind it shares one sign-in budget and one
 * failure backoff per account, so one guesser would slow everyone. Said in a warning (every 10
 * minutes at most) until TRUSTED_PROXIES names the proxy.
 */
export function registerUntrustedProxyWarning(fastify: FastifyInstance, logger: Logger): void {
  const warn = throttledWarn(
    logger,
    'sign-in came through a proxy that TRUSTED_PROXIES does not name: all its clients share one address, one sign-in budget and one failure backoff; set TRUSTED_PROXIES',
    600_000,
  );
  fastify.addHook('onRequest', (req, _reply, done) => {
    if (req.headers['x-forwarded-for'] !== undefined && isPasswordRoute(req)) warn(`the proxy's address: ${req.ip}`);
    done();
  });
}
