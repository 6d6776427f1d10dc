import { ErrorCode } from '@pay/contracts';
import {
  type AuthenticatedMerchant,
  hashToken,
  type MerchantAuthRepository,
  type MerchantBalance,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsBalanceWithToken } from './balance-with-token';
import type { MerchantAuthCache } from './merchant-auth.cache';
import type { RecentTokens } from './recent-tokens';
import { tokenCheckedByStatement } from './token-checked-by-statement';

export const TOKEN_HEADER = 'token';
export const MERCHANT_API_PREFIX = '/api/v1/';

const TOKEN_CHECK = Symbol('merchantTokenCheck');
const BALANCE = Symbol('balanceReadWithToken');
type WithTokenCheck = FastifyRequest & { [TOKEN_CHECK]?: Promise<AuthenticatedMerchant>; [BALANCE]?: MerchantBalance };

/**
 * Spec section 5 and 7, the 401s: missing `token` header -> Token not found; unknown or revoked
 * -> Token not valid; inactive merchant -> Merchant not active. Done once per request: the
 * onRequest hook runs it before the body is read, and MerchantAuthGuard reuses the outcome.
 * Live on every route but the @TokenCheckedByStatement ones, whose statement does it again.
 */
export function authenticateToken(
  req: FastifyRequest,
  tokens: MerchantAuthRepository,
  cache?: MerchantAuthCache,
): Promise<AuthenticatedMerchant> {
  const r = req as WithTokenCheck;
  r[TOKEN_CHECK] ??= lookUp(req, tokens, cache);
  return r[TOKEN_CHECK];
}

const TOKEN_HASH = Symbol('tokenHash');

/** The SHA-256 of the request's token (as the database keeps it), computed once per request; undefined without a token. */
export function tokenHashOf(req: FastifyRequest): string | undefined {
  const r = req as FastifyRequest & { [TOKEN_HASH]?: string };
  if (r[TOKEN_HASH] !== undefined) return r[TOKEN_HASH];
  const token = tokenOf(req);
  return token === undefined ? undefined : (r[TOKEN_HASH] = hashToken(token));
}

/** The request's token, trimmed; undefined when the header is missing or blank. */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  return token || undefined;
}

/**
 * A @TokenCheckedByStatement route takes a token that authenticated a moment ago from the cache
 * (its statement checks the token again). So does a @BalanceWithToken route, whose balance is then
 * read by a statement that checks the token in the same snapshot and reads the merchant's IP
 * allowlist live (a revoked token or an inactive merchant reads nothing, and is looked up in full
 * for its 401). Any other route, or a token not in the cache, is looked up, and a token that
 * authenticates is remembered for those routes.
 */
async function lookUp(
  req: FastifyRequest,
  tokens: MerchantAuthRepository,
  cache?: MerchantAuthCache,
): Promise<AuthenticatedMerchant> {
  const hash = tokenHashOf(req);
  if (!hash)
    // The spec's message; a client that sent its token as a bearer (the usual habit) is told where it goes.
    throw req.headers.authorization
      ? new ApiError(
          ErrorCode.TokenNotFound,
          'Token not found: send the API token in the `token` header (Authorization is not read)',
        )
      : new ApiError(ErrorCode.TokenNotFound);
  const withBalance = wantsBalanceWithToken(req);
  const cached = cache && (withBalance || tokenCheckedByStatement(req)) ? cache.get(hash) : undefined;
  if (cached && !withBalance) return cached;
  if (cached) {
    const access = await tokens.balanceIfTokenValid(hash);
    if (access) {
      (req as WithTokenCheck)[BALANCE] = access.balance;
      return { ...cached, ipAllowlistEnabled: access.ipAllowlistEnabled, ipAllowlist: access.ipAllowlist };
    }
  }
  const version = cache?.version();
  const lookup = await tokens.findByHash(hash, { withBalance });
  if (!lookup.found) throw new ApiError(ErrorCode.TokenNotValid);
  if (!lookup.merchant.isActive) throw new ApiError(ErrorCode.MerchantNotActive);
  if (cache && version !== undefined) cache.remember(hash, lookup.merchant, version);
  (req as WithTokenCheck)[BALANCE] = lookup.balance;
  return lookup.merchant;
}

/**
 * The balance the request's token check read with the token (@BalanceWithToken routes), once
 * the request is authenticated; undefined on other routes.
 */
export function balanceReadWithToken(req: FastifyRequest): MerchantBalance | undefined {
  return (req as WithTokenCheck)[BALANCE];
}

/**
 * Every /api/v1 route is a merchant route (MerchantAuthGuard on each controller). Its token is
 * checked when the headers are in, before Fastify reads the body (Nest guards run only after
 * it is parsed): a caller without a valid token cannot make the gateway read a large or slow
 * body. The refusal closes the connection, so the unread body is not drained either. A token
 * that authenticates is remembered with its merchant in `recent` (for refusing early only).
 */
export function registerMerchantTokenCheck(
  fastify: FastifyInstance,
  tokens: MerchantAuthRepository,
  recent: RecentTokens,
  cache?: MerchantAuthCache,
): void {
  fastify.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.url?.startsWith(MERCHANT_API_PREFIX)) return;
    try {
      const merchant = await authenticateToken(req, tokens, cache);
      recent.remember(tokenHashOf(req) as string, merchant.id);
    } catch (err) {
      void reply.header('connection', 'close');
      throw err;
    }
  });
}
