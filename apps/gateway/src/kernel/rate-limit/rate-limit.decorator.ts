import { applyDecorators } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiResponse } from '@nestjs/swagger';
import { AddRouteConfig } from '../http/route-config';
import { ErrorResponse } from '../openapi/error-response';
import type { RateLimitClass } from './rate-limit.class';

/** The Fastify route config key that carries the class: the guards charge by it, and onRequest hooks know it before Nest runs. */
const ROUTE_CONFIG_KEY = 'rateLimitClass';

const HEADERS = {
  'RateLimit-Limit': {
    description: "Requests allowed per window in this endpoint's class",
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the full limit is available again', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The limit and its window in seconds, e.g. 100;w=1', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before sending the request again', schema: { type: 'integer' } },
};

/**
 * The endpoint counts against the merchant's budget of this class: the guard that identifies the
 * merchant charges it (RateLimiter.charge), after authentication and before validation or any
 * database work of the handler. Every answer carries the RateLimit-* headers; over the limit it is
 * 429 RATE_LIMITED with Retry-After. The class is kept in the Fastify route's config
 * (rateLimitClassOf), so hooks that run before authentication know it too.
 */
export function RateLimit(cls: RateLimitClass): MethodDecorator {
  return applyDecorators(
    AddRouteConfig({ [ROUTE_CONFIG_KEY]: cls }),
    ApiResponse({
      status: 429,
      type: ErrorResponse,
      headers: HEADERS,
      description: `RATE_LIMITED: over the merchant's ${cls} limit; wait Retry-After seconds, then send the same request again`,
    }),
  );
}

/** The @RateLimit class of the route a request matched, known from onRequest on. */
export function rateLimitClassOf(req: FastifyRequest): RateLimitClass | undefined {
  return (req.routeOptions.config as { [ROUTE_CONFIG_KEY]?: RateLimitClass })[ROUTE_CONFIG_KEY];
}
