import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { isIpAllowed } from '@pay/domain';
import { MerchantAuthRepository } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { FastifyReply } from 'fastify';
import { RateLimiter } from '../../rate-limit/rate-limiter';
import type { AuthenticatedRequest } from './authenticated-request';
import { authenticateToken } from './merchant-token';
import { missingScopes } from './requires-scope';

export { TOKEN_HEADER } from './merchant-token';

/**
 * Spec section 5 and 7: the `token` header identifies the merchant. Checked in this order:
 * missing -> 401 Token not found; unknown or revoked -> 401 Token not valid; inactive
 * merchant -> 401 Merchant not active (authenticateToken, usually already done by the
 * onRequest hook before the body was read); allowlist on and caller not in it -> 403 IP_NOT_ALLOWED.
 * The caller's address is req.ip, which honours X-Forwarded-For only from TRUSTED_PROXIES.
 * A token without the scope the route declares (@RequiresScope) -> 403 SCOPE_REQUIRED naming it.
 * Then the request is charged to the merchant's rate limit (RateLimiter.charge: 429 over it).
 */
@Injectable()
export class MerchantAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: MerchantAuthRepository,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const merchant = await authenticateToken(req, this.tokens);
    if (merchant.ipAllowlistEnabled && !isIpAllowed(req.ip ?? '', merchant.ipAllowlist)) {
      throw new ApiError(ErrorCode.IpNotAllowed);
    }
    const missing = missingScopes(req, merchant.tokenScopes);
    if (missing.length > 0)
      throw new ApiError(ErrorCode.ScopeRequired, `This token does not have the scope ${missing.join(', ')}`);
    req.merchant = merchant;
    await this.limiter.charge(req, http.getResponse<FastifyReply>(), merchant);
    return true;
  }
}
