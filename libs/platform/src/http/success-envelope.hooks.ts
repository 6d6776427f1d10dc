import type { SuccessEnvelope } from '@pay/contracts';
import type { FastifyInstance } from 'fastify';
import { requestLogId } from './log-id.hooks';

/** What a controller returns: the envelope's message and data; the logId is added by registerSuccessEnvelope. */
export class Reply<T> {
  constructor(
    readonly message: string,
    readonly data: T,
  ) {}
}

/**
 * A handler's Reply is sent as the success envelope `{ logId, status: true, message, data }`.
 * A Fastify preSerialization hook, not a Nest interceptor: every Nest interceptor wraps each call
 * of every route in rxjs observables and an async resource (decision 0017), for what is one
 * object literal. Anything else a handler returns is sent as it is.
 */
export function registerSuccessEnvelope(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (req, _reply, payload, done) => {
    if (!(payload instanceof Reply)) return done(null, payload);
    const body: SuccessEnvelope<unknown> = {
      logId: requestLogId(req),
      status: true,
      message: payload.message,
      data: payload.data,
    };
    done(null, body);
  });
}
