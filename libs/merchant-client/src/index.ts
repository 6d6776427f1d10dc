import type { components } from './generated/merchant-api';

export { createMerchantClient, unwrap, type MerchantClient, type MerchantClientOptions } from './client';
export { CallbackSignatureError, MerchantApiError, type FieldError } from './errors';
export {
  CALLBACK_SIGNATURE_HEADER,
  type CallbackSignatureHeader,
  constructCallbackEvent,
  verifyCallbackSignature,
  type VerifyOptions,
} from './webhooks';
export type { components, operations, paths } from './generated/merchant-api';

/** The body POSTed to a transfer's notifyUrl once it is final. */
export type DisbursementCallback = components['schemas']['DisbursementCallback'];
/** The body POSTed to a pay-in's notifyUrl (or the merchant's default) once it is final. */
export type PayinCallback = components['schemas']['PayinCallback'];
/** The body POSTed to a pay-in's notifyUrl (or the merchant's default) once a refund of it is final. */
export type PayinRefundCallback = components['schemas']['PayinRefundCallback'];
/** The body POSTed to the merchant's default callback URL once a settlement is credited. */
export type SettlementCreditedCallback = components['schemas']['SettlementCreditedCallback'];
/** One event of GET /api/v1/events: a callback's body as sent and a signature made when read. */
export type LoggedEvent = components['schemas']['EventLogItem'];
