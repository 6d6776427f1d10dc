export { createMerchantClient, unwrap, type MerchantClient, type MerchantClientOptions } from './client';
export { CallbackSignatureError, MerchantApiError, type FieldError } from './errors';
export { CALLBACK_SIGNATURE_HEADER, constructCallbackEvent, verifyCallbackSignature, type VerifyOptions } from './webhooks';
export type { components, operations, paths } from './generated/merchant-api';
