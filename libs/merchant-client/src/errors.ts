/** One offending field of a validation error (HTTP 400, code VALIDATION_ERROR). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * A refusal from the API: the error envelope `{ logId, status: false, message, code }` with its
 * HTTP status. Quote `logId` to support; branch on `code`, never on `message`.
 */
export class MerchantApiError extends Error {
  override readonly name = 'MerchantApiError';

  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly logId: string | undefined,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

/** A callback whose X-Callback-Signature does not verify: do not act on its body. */
export class CallbackSignatureError extends Error {
  override readonly name = 'CallbackSignatureError';
}
