import { applyDecorators, Get, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { MerchantAuthGuard, TOKEN_HEADER } from '../auth/merchant-auth.guard';
import { ErrorResponse } from '../openapi/error-response';
import { RateLimit } from '../rate-limit/rate-limit.decorator';

/** A merchant's list: GET, token-authenticated, a read of the rate limit, a page or a validation error. */
export function ListRoute(path: string, summary: string, response: new () => unknown) {
  return applyDecorators(
    Get(path),
    UseGuards(MerchantAuthGuard),
    RateLimit('read'),
    ApiHeader({ name: TOKEN_HEADER, required: true, description: 'Merchant API token' }),
    ApiOperation({ summary, description: 'Newest first by (createdAt, id). Follow nextCursor until hasMore is false; rows created meanwhile do not shift pages.' }),
    ApiOkResponse({ type: response }),
    ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_ERROR: limit, cursor, from, to or status (errors names each field)' }),
    ApiResponse({ status: 401, type: ErrorResponse, description: 'Token not found | Token not valid | Merchant not active' }),
    ApiResponse({ status: 403, type: ErrorResponse, description: 'IP_NOT_ALLOWED' }),
  );
}
