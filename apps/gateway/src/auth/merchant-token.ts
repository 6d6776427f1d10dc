import { ErrorCode } from '@pay/contracts';
import type { AuthenticatedMerchant, MerchantAuthRepository } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const TOKEN_HEADER = 'token';
export const MERCHANT_API_PREFIX = '/api/v1/';

const TOKEN_CHECK = Symbol('merchantTokenCheck');
type WithTokenCheck = FastifyRequest & { [TOKEN_CHECK]?: Promise<AuthenticatedMerchant> };

/**
 * Spec section 5 and 7, the 401s: missing `token` header -> Token not found; unknown or revoked
 * -> Token not valid; inactive merchant -> Merchant not active. Done once per request: the
 * onRequest hook runs it before the body is read, and MerchantAuthGuard reuses the outcome.
 */
export function authenticateToken(req: FastifyRequest, tokens: MerchantAuthRepository): Promise<AuthenticatedMerchant> {
  const r = req as WithTokenCheck;
  r[TOKEN_CHECK] ??= lookUp(req, tokens);
  return r[TOKEN_CHECK];
}

async function lookUp(req: FastifyRequest, tokens: MerchantAuthRepository): Promise<AuthenticatedMerchant> {
  const header = req.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || !token.trim()) throw new ApiError(ErrorCode.TokenNotFound);
  const lookup = await tokens.findByToken(token.trim());
  if (!lookup.found) throw new ApiError(ErrorCode.TokenNotValid);
  if (!lookup.merchant.isActive) throw new ApiError(ErrorCode.MerchantNotActive);
  return lookup.merchant;
}

/**
 * Every /api/v1 route is a merchant route (MerchantAuthGuard on each controller). Its token is
 * checked when the headers are in, before Fastify reads the body (Nest guards run only after
 * it is parsed): a caller without a valid token cannot make the gateway read a large or slow
 * body. The refusal closes the connection, so the unread body is not drained either.
 */
export function registerMerchantTokenCheck(fastify: FastifyInstance, tokens: MerchantAuthRepository): void {
  fastify.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.url?.startsWith(MERCHANT_API_PREFIX)) return;
    try {
      await authenticateToken(req, tokens);
    } catch (err) {
      void reply.header('connection', 'close');
      throw err;
    }
  });
}
