/**
 * What an operator use case (libs/backoffice) refuses: one code set for every face of the back
 * office. The gateway's envelope filter maps each code to an ErrorCode of the API (and so to its
 * HTTP status); the admin CLI maps each to an exit code. Never rename one.
 */
export enum BackofficeErrorCode {
  MerchantNotFound = 'MERCHANT_NOT_FOUND',
  TokenNotFound = 'TOKEN_NOT_FOUND',
  DashboardUserNotFound = 'DASHBOARD_USER_NOT_FOUND',
  DeadLetterNotFound = 'DEAD_LETTER_NOT_FOUND',
  WebhookDeliveryNotFound = 'WEBHOOK_DELIVERY_NOT_FOUND',
  DisbursementNotFound = 'DISBURSEMENT_NOT_FOUND',
  /** A reversal of a disbursement that is not successful (pending, failed): nothing was paid out to return */
  DisbursementNotReversible = 'DISBURSEMENT_NOT_REVERSIBLE',
  AdjustmentNotFound = 'ADJUSTMENT_NOT_FOUND',
  /** An operator deciding their own adjustment request: a second operator must (maker-checker) */
  OwnAdjustment = 'OWN_ADJUSTMENT',
  /** An adjustment already approved, rejected or expired: only a request still open is decided */
  AdjustmentNotRequested = 'ADJUSTMENT_NOT_REQUESTED',
  /** Input refused; the error names the field (the API's body field, the CLI's option) */
  InvalidInput = 'INVALID_INPUT',
  /** The action does not apply to the thing as it stands (a dead letter already replayed) */
  InvalidState = 'INVALID_STATE',
  /** A callback URL that points into our own network; names the field */
  CallbackUrlRefused = 'CALLBACK_URL_REFUSED',
  /** Taken already (an email), or a rule between two users (an operator disabling itself) */
  Conflict = 'CONFLICT',
  /** No finance export of that id */
  ExportNotFound = 'EXPORT_NOT_FOUND',
  /** No reconciliation run or break of that id */
  ReconNotFound = 'RECON_NOT_FOUND',
}

/** An operator use case's refusal: its code, a message for people, and the field it is about (input only). */
export class BackofficeError extends Error {
  constructor(
    readonly code: BackofficeErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'BackofficeError';
  }
}
