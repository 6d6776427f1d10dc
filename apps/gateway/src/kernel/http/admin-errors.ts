import {
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import {
  DashboardUserInputError,
  DashboardUserNotFoundError,
  MerchantInputError,
  MerchantNotFoundError,
  TokenNotFoundError,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { catchError, type Observable, throwError } from 'rxjs';

/** MerchantAdmin's and DashboardUserAdmin's errors as the ops API answers them: unknown merchant or token 404, refused input 400 naming the field. */
export function toApiError(err: unknown): unknown {
  if (
    err instanceof MerchantNotFoundError ||
    err instanceof TokenNotFoundError ||
    err instanceof DashboardUserNotFoundError
  )
    return new ApiError(ErrorCode.NotFound, err.message);
  if (err instanceof DashboardUserInputError)
    return err.conflict
      ? new ApiError(ErrorCode.Conflict, err.message)
      : new ApiError(ErrorCode.ValidationError, `${err.field}: ${err.message}`, [
          { field: err.field, message: err.message },
        ]);
  if (err instanceof MerchantInputError)
    return new ApiError(ErrorCode.ValidationError, `${err.field}: ${err.message}`, [
      { field: err.field, message: err.message },
    ]);
  return err;
}

/** Applies toApiError to whatever an ops handler throws (the CLI maps the same errors to exit code 2). */
@Injectable()
export class AdminErrorsInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((err: unknown) => throwError(() => toApiError(err))));
  }
}

const INT4_MAX = 2_147_483_647;

/**
 * The `:merchantId` path parameter as a number. Anything that cannot be a merchant id (not a
 * positive int4) is an unknown merchant, 404. A param decorator rather than a pipe: the global
 * ValidationPipe would have turned "abc" into NaN before a pipe saw it.
 */
export const MerchantId = createParamDecorator((_data: unknown, ctx: ExecutionContext): number => {
  const raw =
    ctx.switchToHttp().getRequest<FastifyRequest<{ Params: { merchantId?: string } }>>().params.merchantId ?? '';
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= INT4_MAX))
    throw new ApiError(ErrorCode.NotFound, /^\d+$/.test(raw) ? `merchant ${raw} not found` : 'merchant not found');
  return id;
});

/** The `:userId` path parameter (a dashboard user); anything that cannot be a user id is an unknown user, 404. */
export const UserId = createParamDecorator((_data: unknown, ctx: ExecutionContext): number => {
  const raw = ctx.switchToHttp().getRequest<FastifyRequest<{ Params: { userId?: string } }>>().params.userId ?? '';
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError(ErrorCode.NotFound, 'dashboard user not found');
  return Number(raw);
});
