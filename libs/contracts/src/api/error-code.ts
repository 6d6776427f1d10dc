/**
 * Stable error codes of the merchant API. Never rename one: merchants branch on them.
 * Each code has exactly one HTTP status (see ERROR_HTTP_STATUS).
 */
export enum ErrorCode {
  TokenNotFound = 'TOKEN_NOT_FOUND',
  TokenNotValid = 'TOKEN_NOT_VALID',
  MerchantNotActive = 'MERCHANT_NOT_ACTIVE',
  IpNotAllowed = 'IP_NOT_ALLOWED',
  /** The token lacks the scope the route needs (docs/access.md); the message names it */
  ScopeRequired = 'SCOPE_REQUIRED',
  /** The dashboard user's role does not reach the route (docs/access.md); the message names what it needs */
  RoleRequired = 'ROLE_REQUIRED',
  ValidationError = 'VALIDATION_ERROR',
  NotFound = 'NOT_FOUND',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  InsufficientBalance = 'INSUFFICIENT_BALANCE',
  UnknownBankCode = 'UNKNOWN_BANK_CODE',
  AccountNotFound = 'ACCOUNT_NOT_FOUND',
  AccountBlocked = 'ACCOUNT_BLOCKED',
  InquiryNotFound = 'INQUIRY_NOT_FOUND',
  InquiryExpired = 'INQUIRY_EXPIRED',
  InquiryMismatch = 'INQUIRY_MISMATCH',
  InquiryAlreadyUsed = 'INQUIRY_ALREADY_USED',
  DuplicateMerchantTrxId = 'DUPLICATE_MERCHANT_TRX_ID',
  TransactionNotFound = 'TRANSACTION_NOT_FOUND',
  NotifyUrlNotAllowed = 'NOTIFY_URL_NOT_ALLOWED',
  PayinNotFound = 'PAYIN_NOT_FOUND',
  AmountMismatch = 'AMOUNT_MISMATCH',
  QrExpired = 'QR_EXPIRED',
  PayinAlreadyFinal = 'PAYIN_ALREADY_FINAL',
  PaidAtInvalid = 'PAID_AT_INVALID',
  AcquirerReferenceConflict = 'ACQUIRER_REFERENCE_CONFLICT',
  Conflict = 'CONFLICT',
  SignatureInvalid = 'SIGNATURE_INVALID',
  ReconExportFailed = 'RECON_EXPORT_FAILED',
  TransferProcessing = 'TRANSFER_PROCESSING',
  RateLimited = 'RATE_LIMITED',
  BankUnavailable = 'BANK_UNAVAILABLE',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
  // QRIS refunds (issue 44)
  /** The refundId was used before with another body (pay-in, amount or reason) */
  RefundIdConflict = 'REFUND_ID_CONFLICT',
  /** Only a successful pay-in can be refunded */
  PayinNotRefundable = 'PAYIN_NOT_REFUNDABLE',
  /** The pay-in was paid longer ago than the acquirer's refund window */
  RefundWindowClosed = 'REFUND_WINDOW_CLOSED',
  /** The amount is more than what is left of the pay-in (its amount minus every refund not failed) */
  RefundAmountExceeded = 'REFUND_AMOUNT_EXCEEDED',
  /** No refund of the merchant with this refundId */
  RefundNotFound = 'REFUND_NOT_FOUND',
  /** The ledger has not decided the refund's debit yet: the same request again gets its result */
  RefundProcessing = 'REFUND_PROCESSING',
  // The dashboard and the operator console (decision 0023)
  SignInFailed = 'SIGN_IN_FAILED',
  TotpRequired = 'TOTP_REQUIRED',
  AccountLocked = 'ACCOUNT_LOCKED',
  SessionRequired = 'SESSION_REQUIRED',
  ReauthRequired = 'REAUTH_REQUIRED',
  CsrfTokenInvalid = 'CSRF_TOKEN_INVALID',
  SetupLinkInvalid = 'SETUP_LINK_INVALID',
  // The back office (operators)
  /** Only a successful disbursement can be reversed (returned by the beneficiary's bank) */
  DisbursementNotReversible = 'DISBURSEMENT_NOT_REVERSIBLE',
  /** The requester of an adjustment approving or rejecting it: another operator must (maker-checker) */
  OwnAdjustment = 'OWN_ADJUSTMENT',
  /** The adjustment is not open anymore: approved, rejected or expired */
  AdjustmentNotRequested = 'ADJUSTMENT_NOT_REQUESTED',
  // Batch payouts (issue 44)
  /** The batchId was used before with another body */
  BatchIdConflict = 'BATCH_ID_CONFLICT',
  /** No batch of the merchant with this batchId */
  BatchNotFound = 'BATCH_NOT_FOUND',
  /** A batch row: the accountName given is not the name the bank holds for the account */
  AccountNameMismatch = 'ACCOUNT_NAME_MISMATCH',
  // Approval before money leaves (issue 44 part 2)
  /** The approver created the payout, or its role does not allow approving payouts */
  ApprovalNotAllowed = 'APPROVAL_NOT_ALLOWED',
  /** The payout is not awaiting approval: already approved, rejected or expired, or never held */
  PayoutNotAwaitingApproval = 'PAYOUT_NOT_AWAITING_APPROVAL',
}

export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.TokenNotFound]: 401,
  [ErrorCode.TokenNotValid]: 401,
  [ErrorCode.MerchantNotActive]: 401,
  [ErrorCode.IpNotAllowed]: 403,
  [ErrorCode.ScopeRequired]: 403,
  [ErrorCode.RoleRequired]: 403,
  [ErrorCode.ValidationError]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.InsufficientBalance]: 422,
  [ErrorCode.UnknownBankCode]: 400,
  [ErrorCode.AccountNotFound]: 422,
  [ErrorCode.AccountBlocked]: 422,
  [ErrorCode.InquiryNotFound]: 404,
  [ErrorCode.InquiryExpired]: 422,
  [ErrorCode.InquiryMismatch]: 422,
  [ErrorCode.InquiryAlreadyUsed]: 409,
  [ErrorCode.DuplicateMerchantTrxId]: 409,
  [ErrorCode.TransactionNotFound]: 404,
  [ErrorCode.NotifyUrlNotAllowed]: 400,
  [ErrorCode.PayinNotFound]: 404,
  [ErrorCode.AmountMismatch]: 422,
  [ErrorCode.QrExpired]: 422,
  [ErrorCode.PayinAlreadyFinal]: 409,
  [ErrorCode.PaidAtInvalid]: 422,
  [ErrorCode.AcquirerReferenceConflict]: 409,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.SignatureInvalid]: 401,
  [ErrorCode.ReconExportFailed]: 500,
  [ErrorCode.TransferProcessing]: 503,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.BankUnavailable]: 503,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.RefundIdConflict]: 409,
  [ErrorCode.PayinNotRefundable]: 409,
  [ErrorCode.RefundWindowClosed]: 422,
  [ErrorCode.RefundAmountExceeded]: 422,
  [ErrorCode.RefundNotFound]: 404,
  [ErrorCode.RefundProcessing]: 503,
  [ErrorCode.SignInFailed]: 401,
  [ErrorCode.TotpRequired]: 401,
  [ErrorCode.AccountLocked]: 423,
  [ErrorCode.SessionRequired]: 401,
  [ErrorCode.ReauthRequired]: 401,
  [ErrorCode.CsrfTokenInvalid]: 403,
  [ErrorCode.SetupLinkInvalid]: 400,
  [ErrorCode.DisbursementNotReversible]: 409,
  [ErrorCode.OwnAdjustment]: 403,
  [ErrorCode.AdjustmentNotRequested]: 409,
  [ErrorCode.BatchIdConflict]: 409,
  [ErrorCode.BatchNotFound]: 404,
  [ErrorCode.AccountNameMismatch]: 422,
  [ErrorCode.ApprovalNotAllowed]: 403,
  [ErrorCode.PayoutNotAwaitingApproval]: 409,
};

export const ERROR_MESSAGE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.TokenNotFound]: 'Token not found',
  [ErrorCode.TokenNotValid]: 'Token not valid',
  [ErrorCode.MerchantNotActive]: 'Merchant not active',
  [ErrorCode.IpNotAllowed]: 'Access is not allowed from this IP address',
  [ErrorCode.ScopeRequired]: 'This token does not have the scope this call needs',
  [ErrorCode.RoleRequired]: 'Your role does not allow this',
  [ErrorCode.NotFound]: 'Route not found',
  [ErrorCode.AccountNotFound]: 'Account not found',
  [ErrorCode.AccountBlocked]: 'Account is closed or blocked',
  [ErrorCode.InquiryNotFound]: 'Account inquiry not found',
  [ErrorCode.InquiryExpired]: 'Account inquiry has expired; make a new account inquiry',
  [ErrorCode.InquiryAlreadyUsed]: 'Account inquiry has already been used for another transfer',
  [ErrorCode.DuplicateMerchantTrxId]: 'merchantTrxId has already been used for another transfer',
  [ErrorCode.TransactionNotFound]: 'Transaction not found',
  [ErrorCode.PayinNotFound]: 'QRIS payment reference not found',
  [ErrorCode.AmountMismatch]: 'Paid amount does not match the QRIS amount',
  [ErrorCode.QrExpired]: 'QRIS code has expired',
  [ErrorCode.PayinAlreadyFinal]: 'QRIS payment is already completed',
  [ErrorCode.PaidAtInvalid]: "paidAt must lie between the code's creation and now",
  [ErrorCode.AcquirerReferenceConflict]: 'acquirerReference has already been used for another payment',
  [ErrorCode.Conflict]: 'The request conflicts with an existing record',
  [ErrorCode.SignInFailed]: 'Email or password is wrong',
  [ErrorCode.TotpRequired]: 'Enter the code from your authenticator app',
  [ErrorCode.AccountLocked]: 'Too many failed sign-ins; try again later',
  [ErrorCode.SessionRequired]: 'Sign in first',
  [ErrorCode.ReauthRequired]: 'Confirm your password to continue',
  [ErrorCode.CsrfTokenInvalid]: 'Missing or wrong X-CSRF-Token header',
  [ErrorCode.SetupLinkInvalid]: 'This set-password link is not valid or has expired; ask an operator for a new one',
  [ErrorCode.SignatureInvalid]: 'Signature not valid',
  [ErrorCode.TransferProcessing]: 'Transfer is being processed; send the same request again to get its result',
  [ErrorCode.RefundIdConflict]: 'refundId has already been used for another refund',
  [ErrorCode.PayinNotRefundable]: 'Only a successful QRIS payment can be refunded',
  [ErrorCode.RefundWindowClosed]: "The QRIS payment is older than the acquirer's refund window",
  [ErrorCode.RefundAmountExceeded]: 'The refund amount is more than what is left of the QRIS payment',
  [ErrorCode.RefundNotFound]: 'Refund not found',
  [ErrorCode.RefundProcessing]: 'Refund is being processed; send the same request again to get its result',
  [ErrorCode.RateLimited]: 'Too many requests; retry after the number of seconds in the Retry-After header',
  [ErrorCode.BankUnavailable]: 'The bank did not answer in time; please retry',
  [ErrorCode.InternalError]: 'Internal server error',
  [ErrorCode.ServiceUnavailable]: 'Service temporarily unavailable, please retry',
  [ErrorCode.BatchIdConflict]: 'batchId has already been used for a batch with other rows',
  [ErrorCode.BatchNotFound]: 'Batch not found',
  [ErrorCode.ApprovalNotAllowed]: 'You may not approve or reject this payout: another approver must',
  [ErrorCode.PayoutNotAwaitingApproval]: 'The payout is not awaiting approval: already decided or expired',
  [ErrorCode.AccountNameMismatch]: 'accountName does not match the name the bank holds for the account',
};

/** The failure body of every endpoint. */
export interface ErrorEnvelope {
  logId: string;
  status: false;
  message: string;
  code: ErrorCode;
  /** Present on validation errors: one entry per offending field */
  errors?: { field: string; message: string }[];
}

export interface SuccessEnvelope<T> {
  logId: string;
  status: true;
  message: string;
  data: T;
}
