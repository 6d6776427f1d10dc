import { ERROR_HTTP_STATUS, ERROR_MESSAGE, ErrorCode } from '@pay/contracts';

/** The one error type the HTTP edge turns into the error envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_MESSAGE[code] ?? code,
    readonly fieldErrors?: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get httpStatus(): number {
    return ERROR_HTTP_STATUS[this.code];
  }
}
