import { ErrorCode } from '@pay/contracts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error';

/** The methods a route of ours can have (HEAD comes with every GET). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A request no route matches, on a path that exists with other methods, is not a 404: it answers
 * 405 METHOD_NOT_ALLOWED with `Allow` listing those methods, and OPTIONS answers 204 with the
 * same `Allow`. Unknown paths stay 404. Fastify's router is asked by the concrete path, so path
 * parameters, the query string and routes added by plugins count like anywhere else.
 */
export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    if (!req.is404) return done();
    const allowed = METHODS.filter(
      (method) => method !== req.method && fastify.findRoute({ method, url: req.url }) !== null,
    );
    if (allowed.length === 0) return done();
    void reply.header('Allow', allowed.join(', '));
    if (req.method === 'OPTIONS') {
      void reply.code(204).send();
      return;
    }
    done(
      new ApiError(
        ErrorCode.MethodNotAllowed,
        `Method ${req.method} is not allowed on this path; use ${allowed.join(', ')}`,
      ),
    );
  });
}
