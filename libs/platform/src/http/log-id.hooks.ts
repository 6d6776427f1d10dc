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

/** One access-log line per request, with its logId, status and duration. */
export function registerRequestLogger(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (req, reply, done) => {
    logger.info(
      { logId: requestLogId(req), method: req.method, path: req.originalUrl, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, ip: req.ip },
      'request',
    );
    done();
  });
}
