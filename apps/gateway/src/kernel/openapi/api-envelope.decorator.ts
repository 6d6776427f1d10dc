import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_HTTP_STATUS, ERROR_MESSAGE, ErrorCode } from '@pay/contracts';
import { ErrorResponse } from './error-response';

/** The name of the token security scheme in the document (merchant-document.ts). */
export const TOKEN_SECURITY = 'token';

/** A merchant controller: its tag, and the token header on every operation. */
export function ApiMerchant(tag: string) {
  return applyDecorators(ApiTags(tag), ApiSecurity(TOKEN_SECURITY));
}

const LOG_ID_HEADER: HeadersObject = {
  'X-Log-Id': { description: 'The logId of the body', schema: { type: 'string', format: 'uuid' } },
};

export interface EnvelopeOptions {
  /** The message(s) the answer carries (an enum in the document) */
  message: string | string[];
  /** Instead of the enum: a pattern for messages that count something ("3 merchant(s)"); `message` is the example */
  messagePattern?: string;
  description?: string;
  /** `data` is a list of the class (default: one) */
  isArray?: boolean;
  /** Default 200 */
  status?: number;
}

/** A 200 answer: the success envelope of spec 2.1 with `data` of the given class. */
export function ApiEnvelope(data: Type<unknown>, options: EnvelopeOptions) {
  const messages = Array.isArray(options.message) ? options.message : [options.message];
  const ref = { $ref: getSchemaPath(data) };
  return applyDecorators(
    ApiExtraModels(data),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? messages.join(' | '),
      headers: LOG_ID_HEADER,
      schema: {
        type: 'object',
        required: ['logId', 'status', 'message', 'data'],
        properties: {
          logId: { type: 'string', format: 'uuid', example: '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11' },
          status: { type: 'boolean', enum: [true], example: true },
          message: options.messagePattern
            ? { type: 'string', pattern: options.messagePattern, example: messages[0] }
            : { type: 'string', enum: messages, example: messages[0] },
          data: options.isArray ? { type: 'array', items: ref } : ref,
        },
      },
    }),
  );
}

const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before sending the same request again', schema: { type: 'integer' } },
};

/** Statuses every merchant operation can answer, whatever it does (429 RATE_LIMITED is declared by @RateLimit). */
export const COMMON_ERRORS = [
  ErrorCode.ValidationError,
  ErrorCode.TokenNotFound,
  ErrorCode.TokenNotValid,
  ErrorCode.MerchantNotActive,
  ErrorCode.IpNotAllowed,
  ErrorCode.ScopeRequired,
  ErrorCode.PayloadTooLarge,
  ErrorCode.UnsupportedMediaType,
  ErrorCode.InternalError,
  ErrorCode.ServiceUnavailable,
] as const;

/**
 * The error envelope for each HTTP status the given codes map to (ERROR_HTTP_STATUS), its
 * `code` narrowed to the codes of that status. COMMON_ERRORS are always included.
 */
export function ApiErrors(...codes: ErrorCode[]) {
  return errorResponses(COMMON_ERRORS, codes);
}

/** ApiErrors with another set of always-included codes (the ops API, the acquirer). */
export function errorResponses(common: readonly ErrorCode[], codes: readonly ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...common, ...codes])) {
    const status = ERROR_HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const sorted = [...byStatus.entries()].sort(([a], [b]) => a - b);
  return applyDecorators(
    ApiExtraModels(ErrorResponse),
    ...sorted.map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((c) => (ERROR_MESSAGE[c] ? `${c}: ${ERROR_MESSAGE[c]}` : c)).join(' | '),
        headers: { ...LOG_ID_HEADER, ...(status === 503 ? RETRY_AFTER : {}) },
        schema: {
          allOf: [
            { $ref: getSchemaPath(ErrorResponse) },
            { type: 'object', properties: { code: { type: 'string', enum: list, example: list[0] } } },
          ],
        },
      }),
    ),
  );
}
