import type { FastifyRequest } from 'fastify';
import { AddRouteConfig } from '../../http/route-config';

const ROUTE_CONFIG_KEY = 'tokenCheckedByStatement';

/**
 * The route's own statement checks the token again, in the same transaction as what it writes
 * (the token not revoked, the merchant active): the request may then be let in by a token that
 * authenticated a moment ago (MerchantAuthCache) instead of a lookup of its own, and still no
 * revoked token or inactive merchant ever gets anything done. Routes without it look their token
 * up on every request.
 */
export function TokenCheckedByStatement(): MethodDecorator {
  return AddRouteConfig({ [ROUTE_CONFIG_KEY]: true });
}

/** Whether the route a request matched is @TokenCheckedByStatement, known from onRequest on. */
export function tokenCheckedByStatement(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { [ROUTE_CONFIG_KEY]?: boolean })[ROUTE_CONFIG_KEY] === true;
}
