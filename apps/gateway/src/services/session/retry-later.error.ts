import type { ErrorCode } from '@pay/contracts';
import { ApiError } from '@pay/platform';

/** A refusal that says when to come back: the session controllers send `retryAfterSeconds` as Retry-After. */
export class RetryLaterError extends ApiError {
  constructor(
    code: ErrorCode,
    readonly retryAfterSeconds: number,
    message?: string,
  ) {
    super(code, message);
  }
}

/** Whole seconds until `ms` from now, at least 1 (Retry-After's unit). */
export const retryAfterSecondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
