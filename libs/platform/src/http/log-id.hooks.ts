import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Logger, newLogId, runWithLogId } from '../logging/logger';

const LOG_ID = Symbol('logId');
type WithLogId = FastifyRequest & { [LOG_ID]?: string };

/**
 * Gives every request a fresh logId (also on unknown routes and errors), echoes it in the
 * X-Log-Id header and attaches it to every log line written while the request is served.
 * A caller-supplied id is never trusted: it would let one merchant's id collide with another's.
 */
export function registerLogId(fastify: FastifyInstance): void {
  fastify.decorateRequest(LOG_ID, undefined);
  fastify.addHook('onRequest', (req, reply, done) => {
    const logId = newLogId();
    (req as WithLogId)[LOG_ID] = logId;
    void reply.header('X-Log-Id', logId);
    runWithLogId(logId, done);
  });
  // A body is read from the socket outside that context: enter it again for the handler.
  fastify.addHook('preHandler', (req, _reply, done) => runWithLogId(requestLogId(req), done));
}

export function requestLogId(req: FastifyRequest): string {
  return (req as WithLogId)[LOG_ID] ?? newLogId();
}

/** 429 answers are logged at most this often: a flood of refusals must not cost a log line each. */
const RATE_LIMITED_LOG_EVERY_MS = 1_000;

/**
 * One access-log line per request, with its logId, status and duration; of the 429s, one a
 * second, with the number left out since the previous one (`rateLimitedNotLogged`): a merchant
 * over its limit can send thousands a second, each refused cheaply, and the counter
 * http_rate_limited_total has them all.
 */
export function registerRequestLogger(fastify: FastifyInstance, logger: Logger): void {
  let nextRateLimitedLine = 0;
  let rateLimitedNotLogged = 0;
  fastify.addHook('onResponse', (req, reply, done) => {
    // LOG_LEVEL above info: no access log, and nothing built for one.
    if (!logger.isLevelEnabled('info')) return done();
    const status = reply.statusCode;
    let sampled: { rateLimitedNotLogged: number } | undefined;
    if (status === 429) {
      const now = Date.now();
      if (now < nextRateLimitedLine) {
        rateLimitedNotLogged++;
        return done();
      }
      nextRateLimitedLine = now + RATE_LIMITED_LOG_EVERY_MS;
      sampled = { rateLimitedNotLogged };
      rateLimitedNotLogged = 0;
    }
    logger.info(
      {
        logId: requestLogId(req),
        method: req.method,
        path: req.originalUrl,
        status,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: req.ip,
        ...sampled,
      },
      'request',
    );
    done();
  });
}
