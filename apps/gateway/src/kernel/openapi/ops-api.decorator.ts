import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { errorResponses } from './api-envelope.decorator';

/** The security schemes of the operations document (ops-document.ts). */
export const ADMIN_SECURITY = 'admin';
export const ACQUIRER_SECURITY = 'acquirerSignature';
export const SNAP_ACQUIRER_SECURITY = 'snapAcquirerSignature';

/** Statuses every ops operation can answer: a wrong admin token 401, no ADMIN_TOKEN configured 404, bad input 400, a body not JSON or too large, an outage. */
export const OPS_COMMON_ERRORS = [
  ErrorCode.ValidationError,
  ErrorCode.TokenNotValid,
  ErrorCode.NotFound,
  ErrorCode.PayloadTooLarge,
  ErrorCode.UnsupportedMediaType,
  ErrorCode.InternalError,
  ErrorCode.ServiceUnavailable,
] as const;

/** Statuses the acquirer's notification can answer whatever it carries. */
export const ACQUIRER_COMMON_ERRORS = [
  ErrorCode.ValidationError,
  ErrorCode.SignatureInvalid,
  ErrorCode.PayloadTooLarge,
  ErrorCode.UnsupportedMediaType,
  ErrorCode.InternalError,
  ErrorCode.ServiceUnavailable,
] as const;

/** An ops controller: its tag, the admin bearer token on every operation, OPS_COMMON_ERRORS. */
export function ApiOps(tag: string) {
  return applyDecorators(ApiTags(tag), ApiBearerAuth(ADMIN_SECURITY), errorResponses(OPS_COMMON_ERRORS, []));
}

/** ApiErrors for the acquirer's notification. */
export function ApiAcquirerErrors(...codes: ErrorCode[]) {
  return errorResponses(ACQUIRER_COMMON_ERRORS, codes);
}

/** The acquirer controller: its tag and the signature header. */
export function ApiAcquirer(tag: string) {
  return applyDecorators(ApiTags(tag), ApiSecurity(ACQUIRER_SECURITY));
}

/** The :merchantId path parameter (read by the MerchantId param decorator, which Swagger cannot see). */
export const ApiMerchantIdParam = () =>
  ApiParam({
    name: 'merchantId',
    schema: { type: 'integer', minimum: 1 },
    example: 7,
    description: 'Anything that is not a merchant id answers 404 NOT_FOUND',
  });
