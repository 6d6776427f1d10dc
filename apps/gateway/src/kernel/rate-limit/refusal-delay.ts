import type { FastifyInstance } from 'fastify';

/**
 * A 429 is sent `delayMs` after it is decided (nginx's limit_req answers excess requests late
 * too). A client that honours `Retry-After` (at least 1 s) loses nothing: it was going to wait
 * longer than that anyway. A client that ignores it, looping on its connections, can only send
 * one request per connection per `delayMs`, so a flood of refused requests no longer keeps the
 * gateway's event loop busy and other merchants' requests are served as if it were not there.
 * The refusal is decided, counted and logged at once; only its bytes wait (a timer, no CPU),
 * `delayMs` on average (half to one and a half times it).
 */
export function registerRefusalDelay(fastify: FastifyInstance, delayMs: number): void {
  if (delayMs <= 0) return;
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (reply.statusCode !== 429) return done(null, payload);
    // ±50 % jitter: refusals decided together (a burst's) are not answered together, so a looping client's
    // connections do not come back as one wave that other merchants' requests queue behind.
    setTimeout(() => done(null, payload), delayMs * (0.5 + Math.random()));
  });
}
