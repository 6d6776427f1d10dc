import { ErrorCode } from '@pay/contracts';
import type { AuthRefusal } from '@pay/persistence';
import { ApiError } from '@pay/platform';

/** A @TokenCheckedByStatement route's statement found the token revoked or the merchant inactive: the same 401 as the token check. */
export function authRefusal(kind: AuthRefusal): ApiError {
  return new ApiError(kind === 'tokenNotValid' ? ErrorCode.TokenNotValid : ErrorCode.MerchantNotActive);
}
