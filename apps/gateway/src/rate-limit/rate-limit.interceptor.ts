import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { dashboardMerchantOf } from '../dashboard/auth/dashboard-principal';
import { RATE_LIMIT_CLASS } from './rate-limit.decorator';
import type { RateLimitClass } from './rate-limit.class';
import { RateLimiter } from './rate-limiter';

/**
 * Applies @RateLimit(class) to the authenticated merchant: the API token's (`req.merchant`) or the
 * merchant dashboard session's (its principal), one budget per merchant and class whichever way it
 * comes in (decision 0017). Operators and routes without a merchant are not limited. Interceptors run after the guards (the
 * merchant is known) and before the pipes and the handler, so a refused request is neither
 * validated nor touches the database beyond its token check (on a @BalanceWithToken route that
 * one statement has also read the balance, which a refusal does not show).
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const cls = this.reflector.get<RateLimitClass | undefined>(RATE_LIMIT_CLASS, context.getHandler());
    const http = context.switchToHttp();
    const req = http.getRequest<Partial<AuthenticatedRequest>>();
    const merchant = cls && (req.merchant ?? dashboardMerchantOf(req as FastifyRequest));
    if (cls && merchant) await this.limiter.enforce(merchant, cls, http.getResponse<FastifyReply>());
    return next.handle();
  }
}
