import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { type ApiScope, API_SCOPES } from '@pay/domain';
import type { FastifyRequest } from 'fastify';
import { AddRouteConfig } from '../../http/route-config';

const ROUTE_CONFIG_KEY = 'requiredScope';

/** The OpenAPI extension each merchant operation carries: the scope its token needs (docs/access.md). */
export const SCOPE_EXTENSION = 'x-required-scope';

/**
 * The scope a token needs for this merchant API route (docs/access.md). MerchantAuthGuard refuses
 * a token without it (403 SCOPE_REQUIRED naming it) before anything is read or written; the
 * OpenAPI document says it (x-required-scope). Every /api/v1 route declares one: a route without
 * is let in only by a token that has every scope.
 */
export function RequiresScope(scope: ApiScope): MethodDecorator {
  return applyDecorators(AddRouteConfig({ [ROUTE_CONFIG_KEY]: scope }), ApiExtension(SCOPE_EXTENSION, scope));
}

/** The scope the route a request matched declares; undefined when it declares none. */
export function requiredScope(req: FastifyRequest): ApiScope | undefined {
  return (req.routeOptions.config as { [ROUTE_CONFIG_KEY]?: ApiScope } | undefined)?.[ROUTE_CONFIG_KEY];
}

/** The scopes the token lacks for this request: the declared one, or (none declared) every scope it has not. */
export function missingScopes(req: FastifyRequest, tokenScopes: readonly string[]): ApiScope[] {
  const scope = requiredScope(req);
  return (scope ? [scope] : API_SCOPES).filter((s) => !tokenScopes.includes(s));
}
