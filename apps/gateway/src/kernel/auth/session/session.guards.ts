import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@pay/contracts';
import { ApiError } from '@pay/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { RateLimiter } from '../../rate-limit/rate-limiter';
import { SessionAuthenticator } from './session-authenticator';
import { dashboardMerchantOf, setPrincipal } from './dashboard-principal';
import { REQUIRES_RECENT_AUTH } from './requires-recent-auth.decorator';
import { type Reach, requireReach, ROLE_REACH } from './role-reach';
import {
  type Audience,
  isForeignOrigin,
  MERCHANT_AUDIENCE,
  OPERATOR_AUDIENCE,
  sessionCookieOf,
} from './session-cookies';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A session guard (decision 0023): the audience's cookie must name a live session of a user of
 * its role (not disabled; a merchant user's merchant active), else 401 SESSION_REQUIRED. A
 * foreign Origin, or a state-changing method without the session's X-CSRF-Token, is 403
 * CSRF_TOKEN_INVALID. A merchant user whose role does not reach the route (@RoleReach,
 * docs/access.md) is 403 ROLE_REQUIRED. A handler marked @RequiresRecentAuth() also wants the password proved within
 * the last 10 minutes, else 401 REAUTH_REQUIRED (checked last: a forged request learns nothing).
 * Sets the request's principal, and charges a merchant user's request to its merchant's rate limit
 * (the same budget as the merchant's API tokens; operators are not limited).
 */
async function guard(
  context: ExecutionContext,
  auth: SessionAuthenticator,
  reflector: Reflector,
  limiter: RateLimiter,
  audience: Audience,
): Promise<boolean> {
  const http = context.switchToHttp();
  const req = http.getRequest<FastifyRequest>();
  if (isForeignOrigin(req)) throw new ApiError(ErrorCode.CsrfTokenInvalid);
  const session = await auth.authenticate(audience, sessionCookieOf(req, audience));
  if (!SAFE_METHODS.has(req.method)) {
    const header = req.headers['x-csrf-token'];
    if (typeof header !== 'string' || !sameToken(header, session.csrfToken))
      throw new ApiError(ErrorCode.CsrfTokenInvalid);
  }
  if (audience.role === 'merchant')
    requireReach(
      session.merchantRole,
      reflector.getAllAndOverride<Reach | undefined>(ROLE_REACH, [context.getHandler(), context.getClass()]),
    );
  if (
    reflector.getAllAndOverride<boolean | undefined>(REQUIRES_RECENT_AUTH, [context.getHandler(), context.getClass()])
  )
    auth.requireRecentAuth(session);
  setPrincipal(req, {
    userId: session.userId,
    email: session.email,
    role: session.role,
    merchantId: session.merchantId,
    merchantRole: session.merchantRole,
    rateLimits: session.merchantRateLimits,
    csrfToken: session.csrfToken,
  });
  const merchant = dashboardMerchantOf(req);
  if (merchant) await limiter.charge(req, http.getResponse<FastifyReply>(), merchant);
  return true;
}

/** The merchant dashboard's guard (/dashboard/api): pay_dash_session, merchant users only. */
@Injectable()
export class MerchantSessionGuard implements CanActivate {
  constructor(
    private readonly auth: SessionAuthenticator,
    @Inject(Reflector) private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return guard(context, this.auth, this.reflector, this.limiter, MERCHANT_AUDIENCE);
  }
}

/** The operator console's guard (/console/api): pay_console_session, operators only. */
@Injectable()
export class OperatorSessionGuard implements CanActivate {
  constructor(
    private readonly auth: SessionAuthenticator,
    @Inject(Reflector) private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return guard(context, this.auth, this.reflector, this.limiter, OPERATOR_AUDIENCE);
  }
}
