import type { FastifyInstance } from 'fastify';

/** The dashboard's and console's JSON APIs (decision 0023), whatever the route, known or not. */
const SESSION_API = /^\/(?:dashboard|console)\/api(?:[/?]|$)/;

/**
 * Every answer of /dashboard/api and /console/api, errors included, says `Cache-Control:
 * no-store`: balances, new API tokens, webhook secrets and set-password links must not stay in a
 * browser's or a proxy's cache after sign-out. `X-Content-Type-Options: nosniff` too: these are
 * JSON, never to be read as anything else. One onSend hook, so no route can forget it.
 */
export function registerSessionApiHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (SESSION_API.test(req.url)) {
      void reply.header('Cache-Control', 'no-store');
      void reply.header('X-Content-Type-Options', 'nosniff');
    }
    done(null, payload);
  });
}
