import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { MerchantRole } from '@pay/domain';
import type { MerchantRateLimits } from '@pay/persistence';
import type { FastifyRequest } from 'fastify';

/** Who a dashboard or console request is from: set by the session guards (decision 0023). */
export interface DashboardPrincipal {
  userId: number;
  email: string;
  role: 'merchant' | 'operator';
  /** The merchant a merchant user belongs to; null for operators */
  merchantId: number | null;
  /** A merchant user's role (docs/access.md); null for operators */
  merchantRole: MerchantRole | null;
  /** The merchant's own rate limits (null: the default), read with the session; null for operators */
  rateLimits: MerchantRateLimits | null;
  /** The session's CSRF token (sent back on sign-in and GET session) */
  csrfToken: string;
}

const PRINCIPAL = Symbol('dashboardPrincipal');
type WithPrincipal = FastifyRequest & { [PRINCIPAL]?: DashboardPrincipal };

export function setPrincipal(req: FastifyRequest, principal: DashboardPrincipal): void {
  (req as WithPrincipal)[PRINCIPAL] = principal;
}

/** The signed-in user of a request a session guard let in; undefined for one let in by the admin token (OperatorGuard). */
export function signedInUserOf(req: FastifyRequest): DashboardPrincipal | undefined {
  return (req as WithPrincipal)[PRINCIPAL];
}

export function principalOf(req: FastifyRequest): DashboardPrincipal {
  const principal = (req as WithPrincipal)[PRINCIPAL];
  if (!principal) throw new Error('no dashboard principal: the controller lacks its session guard');
  return principal;
}

/**
 * The merchant a merchant user's request is charged to (the session guards' RateLimiter.charge): the dashboard
 * spends the same per-merchant budget as the merchant's API tokens. Undefined without a merchant
 * session (no guard ran, or an operator).
 */
export function dashboardMerchantOf(req: FastifyRequest): { id: number; rateLimits: MerchantRateLimits } | undefined {
  const principal = (req as WithPrincipal)[PRINCIPAL];
  if (!principal || principal.merchantId === null || principal.rateLimits === null) return undefined;
  return { id: principal.merchantId, rateLimits: principal.rateLimits };
}

/** The signed-in operator of a request to the operators' controller set (OperatorGuard); undefined on the ops API. */
export const SignedInOperator = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  signedInUserOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/** The signed-in user of a controller behind MerchantSessionGuard or OperatorSessionGuard. */
export const Principal = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  principalOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/** A merchant user's merchant id (MerchantSessionGuard guarantees it is set). */
export const SessionMerchantId = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) =>
    principalOf(ctx.switchToHttp().getRequest<FastifyRequest>()).merchantId as number,
);
