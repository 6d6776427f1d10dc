import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { ApiError } from '@pay/platform';
import type { FastifyRequest } from 'fastify';

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
