import { applyDecorators, Get, type Type, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { ApiEnvelope, ApiErrors } from '../../kernel/openapi/api-envelope.decorator';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';

/** A merchant's list: GET, token-authenticated, a read of the rate limit, a page or a validation error. */
export function ListRoute(path: string, operationId: string, summary: string, page: Type<unknown>) {
  return applyDecorators(
    Get(path),
    UseGuards(MerchantAuthGuard),
    RateLimit('read'),
    ApiOperation({
      operationId,
      summary,
      description:
        'Newest first by (createdAt, id). Follow nextCursor until hasMore is false; rows created meanwhile do not shift pages. A bad limit, cursor, from, to or status is a 400 VALIDATION_ERROR naming each field.',
    }),
    ApiEnvelope(page, { message: 'Query success' }),
    ApiErrors(),
  );
}
