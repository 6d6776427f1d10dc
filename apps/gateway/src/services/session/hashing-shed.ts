import type { FastifyInstance } from 'fastify';
import type { PasswordHasher } from './password-hasher';
import { RetryLaterError } from './retry-later.error';

/** The routes that hash or verify a password for an anonymous caller. */
const PASSWORD_ROUTES = new Set([
  '/dashboard/api/session',
  '/console/api/session',
  '/dashboard/api/password',
  '/console/api/password',
]);

/**
 * While the password hashing pool and its queue are full, a sign-in or set-password request is
 * refused at once (429 RATE_LIMITED, Retry-After: 1) when its headers are in: before its body is
 * read, before Redis, the database and the Nest pipeline. A flood then costs the event loop
 * little more than its connections, and pages and API calls are served beside it. The service
 * checks again (PasswordHasher.checkRoom): room may run out after this hook.
 */
export function registerHashingShed(fastify: FastifyInstance, hasher: PasswordHasher): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'POST' || !PASSWORD_ROUTES.has(req.routeOptions.url ?? '')) return done();
    try {
      hasher.checkRoom();
    } catch (err) {
      if (err instanceof RetryLaterError) void reply.header('Retry-After', String(err.retryAfterSeconds));
      return done(err as Error);
    }
    done();
  });
}
