import type { FastifyRequest } from 'fastify';
import { AddRouteConfig } from '../../http/route-config';

const ROUTE_CONFIG_KEY = 'balanceWithToken';

/**
 * The route answers with the merchant's balance: the token check reads it in the same statement
 * as the token (MerchantAuthRepository.findByHash withBalance; for a token in MerchantAuthCache,
 * balanceIfTokenValid: four columns, the token, the merchant and its IP allowlist checked in the
 * same snapshot), so the handler needs no second round trip. Still live (spec 2.3 rule 3): read
 * from the projection when the request is authenticated, never from a cache; the handler takes it
 * with balanceReadWithToken.
 */
export function BalanceWithToken(): MethodDecorator {
  return AddRouteConfig({ [ROUTE_CONFIG_KEY]: true });
}

/** Whether the route a request matched asked for @BalanceWithToken, known from onRequest on. */
export function wantsBalanceWithToken(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { [ROUTE_CONFIG_KEY]?: boolean })[ROUTE_CONFIG_KEY] === true;
}
