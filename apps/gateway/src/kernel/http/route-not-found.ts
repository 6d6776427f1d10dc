import { ErrorCode, type ErrorEnvelope } from '@pay/contracts';
import { requestLogId } from '@pay/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers from an onRequest hook exactly as an unknown route does (the envelope
 * EnvelopeExceptionFilter gives a 404). Sent rather than thrown: some routes (Bull Board's) have
 * an error handler of their own.
 */
export async function sendRouteNotFound(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const body: ErrorEnvelope = {
    logId: requestLogId(req),
    status: false,
    message: 'Route not found',
    code: ErrorCode.NotFound,
  };
  await reply.status(404).send(body);
  return reply;
}
