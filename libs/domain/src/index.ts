export { type Minor, parseAmount, formatAmount, formatAmountString, InvalidAmountError } from './money/money';
export { type PayinFeeRate, payinFee, pctMilliToPercent, percentToPctMilli } from './fees/fees';
export { isIpAllowed, normaliseAllowlistEntry } from './ip-allowlist/ip-allowlist';
export { type BalanceChange, type BalanceState, decideDebit, type DebitDecision } from './ledger/balance';
export { type BankInfo, type BankKind, BANKS, findBank, accountNumberProblem } from './banks/bank-directory';
export {
  type DisbursementStatus,
  type PublicDisbursementStatus,
  canTransition,
  publicStatus,
  chargedFee,
} from './disbursement/disbursement-status';
export { formatJakartaDateTime } from './time/jakarta-time';
export {
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_UNRECORDED_CLAIMS,
  type ResponseClass,
  classifyResponse,
  nextAttemptDelayMs,
  parseRetryAfter,
} from './webhooks/retry-schedule';
export { responseExcerpt } from './webhooks/response-excerpt';
export { computeSignature, signatureHeader, verifySignatureHeader } from './webhooks/signature';
export { isAllowedWebhookAddress } from './webhooks/target-address';
export {
  DisbursementCallbackType,
  type DisbursementCallbackFacts,
  type DisbursementFinalStatus,
  disbursementCallbackBody,
  disbursementCallbackEventId,
  disbursementCallbackType,
} from './webhooks/disbursement-callback';
export {
  BATCH_COMPLETED_CALLBACK,
  type BatchCompletedFacts,
  batchCompletedCallbackBody,
  batchCompletedEventId,
  normalisedAccountName,
} from './webhooks/batch-callback';
export {
  PAYIN_REFUNDED_CALLBACK,
  type RefundFacts,
  type RefundStatus,
  refundCallbackBody,
  refundCallbackEventId,
  refundStatus,
  refundView,
} from './webhooks/refund-callback';
export {
  SETTLEMENT_CREDITED_CALLBACK,
  type SettlementCreditedFacts,
  settlementCreditedCallbackBody,
  settlementCreditedEventId,
} from './webhooks/settlement-callback';
export {
  PayinCallbackType,
  type PayinCallbackFacts,
  type PayinFinalStatus,
  payinCallbackBody,
  payinCallbackEventId,
  payinCallbackType,
} from './webhooks/payin-callback';
export { crc16CcittFalse } from './qris/crc16';
export { type QrisPayment, QRIS_GUID, encodeQris, decodeQris, hasValidCrc, fitField } from './qris/qris-payload';
export { QrisFormatError } from './qris/tlv';
export { dueSettlementCutoff, nameBasedUuid, settlementDueAt, settlementId } from './settlement/settlement-schedule';
export { platformTrxId } from './ids/platform-trx-id';
export { parseReconDate, jakartaDay, type ReconDate } from './recon/recon-date';
export { PAYOUT_FAILURE_TEXT, PayoutFailureCode } from './disbursement/payout-failure-code';
export {
  Account,
  type AccountKind,
  accountKind,
  accountMerchant,
  accountName,
  naturalBalance,
  QRIS_ACQUIRER_ACCOUNT,
  SANDBOX_ACQUIRER_ACCOUNT,
} from './books/chart';
export {
  type Posting,
  UnbalancedEntryError,
  entry,
  payinRecordedPostings,
  payinRefundedPostings,
  payinRefundReturnedPostings,
  settlementCreditedPostings,
  payoutDebitedPostings,
  payoutRefundedPostings,
  type PayoutStanding,
  payoutSentPostings,
  payoutConfirmedPostings,
  payoutReversedPostings,
  acquirerSettledPostings,
  railFeePostings,
} from './books/postings';
export {
  API_SCOPES,
  type ApiScope,
  DASHBOARD_PERMISSIONS,
  type DashboardPermission,
  type Permission,
  PERMISSIONS,
  MERCHANT_ROLES,
  type MerchantRole,
  ROLE_PERMISSIONS,
  isApiScope,
  isMerchantRole,
  roleAllows,
  scopesAllow,
  normaliseScopes,
} from './access/access';
