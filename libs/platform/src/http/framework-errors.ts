import { ErrorCode, type ErrorEnvelope } from '@pay/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Logger, newLogId } from '../logging/logger';

/**
 * Fastify's `frameworkErrors` option: what its router refuses before any hook runs, so before a
 * request has a logId or an access-log line. A path it cannot decode (`%ff`, overlong UTF-8 such as
 * `%c0%ae`) is the caller's error: 400 VALIDATION_ERROR in the envelope, with the X-Log-Id header
 * and an access-log line as any other request has (Fastify's own answer was a bare JSON of its own).
 */
export function answerFrameworkErrors(
  logger: Logger,
): (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => void {
  return (error, req, reply) => {
    const logId = newLogId();
    const badUrl = error.code === 'FST_ERR_BAD_URL';
    const status = badUrl ? 400 : 500;
    const body: ErrorEnvelope = badUrl
      ? {
          logId,
          status: false,
          message: 'Request path is not valid percent-encoded UTF-8',
          code: ErrorCode.ValidationError,
        }
      : { logId, status: false, message: 'Internal server error', code: ErrorCode.InternalError };
    if (badUrl) logger.info({ logId, method: req.method, path: req.url, status, ip: req.ip }, 'request');
    else logger.error({ logId, err: error, method: req.method, path: req.url }, 'request failed');
    void reply.header('X-Log-Id', logId).status(status).send(body);
  };
}
