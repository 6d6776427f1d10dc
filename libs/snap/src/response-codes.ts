/**
 * SNAP's 7-digit response code: HTTP status (3) + service code (2) + case code (2), reference §3.
 * The HTTP status line must equal the first three digits; a mismatch is an answer we cannot trust.
 */
export interface ResponseCode {
  code: string;
  http: number;
  service: string;
  case: string;
}

export function parseResponseCode(code: unknown): ResponseCode | null {
  if (typeof code !== 'string' || !/^[1-5]\d{6}$/.test(code)) return null;
  return { code, http: Number(code.slice(0, 3)), service: code.slice(3, 5), case: code.slice(5, 7) };
}

/** The reasons a provider refuses a transfer for good; each has a text a merchant can read. */
export const FINAL_FAILURES = {
  expired: 'Transaction expired',
  amount_limit: 'Exceeds the transaction amount limit',
  suspected_fraud: 'Suspected fraud',
  do_not_honor: 'Rejected by the beneficiary bank (do not honor)',
  dormant_account: 'Beneficiary account is dormant',
  insufficient_funds: 'Insufficient funds in the source account',
  not_permitted: 'Transaction not permitted',
  inactive_account: 'Beneficiary account is inactive or blocked',
  invalid_account: 'Beneficiary account not found',
  invalid_routing: 'Beneficiary bank not reachable',
  invalid_amount: 'Invalid amount',
} as const;
export type FinalFailure = keyof typeof FINAL_FAILURES;

/**
 * What a response code means for the caller (the action column of reference §3):
 * - success, in_progress: the provider has it;
 * - not_processed: refused before processing (format, mandatory field): fix and resend the same reference;
 * - auth_token: the token expired or is unknown: refresh once and resend;
 * - auth_fatal: key, secret, signature or clock: never loop, page operations;
 * - final_failure: refused for good (with the reason);
 * - retry_later: cut-off, daily limit, rate limit: not processed, resend the same reference later;
 * - not_found: the status inquiry does not know the transaction (yet);
 * - inconsistent (404xx18) and duplicate_success (409xx01): the reference was used before, resolve through status;
 * - external_id_conflict (409xx00): the X-EXTERNAL-ID was reused today: never assume not processed;
 * - unknown: 5xx, 504xx00 and anything unlisted: the outcome is unknown, ask status.
 */
export type CodeClass =
  | { kind: 'success' }
  | { kind: 'in_progress' }
  | { kind: 'not_processed' }
  | { kind: 'auth_token' }
  | { kind: 'auth_fatal' }
  | { kind: 'final_failure'; reason: FinalFailure }
  | { kind: 'retry_later' }
  | { kind: 'not_found' }
  | { kind: 'inconsistent' }
  | { kind: 'duplicate_success' }
  | { kind: 'external_id_conflict' }
  | { kind: 'unknown' };

/** Every `http + case` pair the reference lists (the service digits vary), with its class. */
export const RESPONSE_CASES: Readonly<Record<string, { meaning: string; class: CodeClass }>> = {
  '200-00': { meaning: 'Successful', class: { kind: 'success' } },
  '202-00': { meaning: 'Request In Progress', class: { kind: 'in_progress' } },
  '400-00': { meaning: 'Bad Request', class: { kind: 'not_processed' } },
  '400-01': { meaning: 'Invalid Field Format', class: { kind: 'not_processed' } },
  '400-02': { meaning: 'Invalid Mandatory Field', class: { kind: 'not_processed' } },
  '401-00': { meaning: 'Unauthorized', class: { kind: 'auth_fatal' } },
  '401-01': { meaning: 'Invalid Token (B2B)', class: { kind: 'auth_token' } },
  '401-03': { meaning: 'Token Not Found (B2B)', class: { kind: 'auth_token' } },
  '403-00': { meaning: 'Transaction Expired', class: { kind: 'final_failure', reason: 'expired' } },
  '403-02': { meaning: 'Exceeds Transaction Amount Limit', class: { kind: 'final_failure', reason: 'amount_limit' } },
  '403-03': { meaning: 'Suspected Fraud', class: { kind: 'final_failure', reason: 'suspected_fraud' } },
  '403-05': { meaning: 'Do Not Honor', class: { kind: 'final_failure', reason: 'do_not_honor' } },
  '403-06': { meaning: 'Feature Not Allowed At This Time', class: { kind: 'retry_later' } },
  '403-09': { meaning: 'Dormant Account', class: { kind: 'final_failure', reason: 'dormant_account' } },
  '403-14': { meaning: 'Insufficient Funds', class: { kind: 'final_failure', reason: 'insufficient_funds' } },
  '403-15': { meaning: 'Transaction Not Permitted', class: { kind: 'final_failure', reason: 'not_permitted' } },
  '403-18': {
    meaning: 'Inactive Card/Account/Customer',
    class: { kind: 'final_failure', reason: 'inactive_account' },
  },
  '403-20': { meaning: 'Merchant Limit Exceed', class: { kind: 'retry_later' } },
  '404-01': { meaning: 'Transaction Not Found', class: { kind: 'not_found' } },
  '404-02': { meaning: 'Invalid Routing', class: { kind: 'final_failure', reason: 'invalid_routing' } },
  '404-03': { meaning: 'Bank Not Supported By Switch', class: { kind: 'final_failure', reason: 'invalid_routing' } },
  '404-11': {
    meaning: 'Invalid Card/Account/Customer',
    class: { kind: 'final_failure', reason: 'invalid_account' },
  },
  '404-13': { meaning: 'Invalid Amount', class: { kind: 'final_failure', reason: 'invalid_amount' } },
  '404-18': { meaning: 'Inconsistent Request', class: { kind: 'inconsistent' } },
  '405-01': { meaning: 'Requested Operation Is Not Allowed', class: { kind: 'retry_later' } },
  '409-00': { meaning: 'Conflict (X-EXTERNAL-ID reused)', class: { kind: 'external_id_conflict' } },
  '409-01': { meaning: 'Duplicate partnerReferenceNo', class: { kind: 'duplicate_success' } },
  '429-00': { meaning: 'Too Many Requests', class: { kind: 'retry_later' } },
  '500-00': { meaning: 'General Error', class: { kind: 'unknown' } },
  '500-01': { meaning: 'Internal Server Error', class: { kind: 'unknown' } },
  '500-02': { meaning: 'External Server Error', class: { kind: 'unknown' } },
  '504-00': { meaning: 'Timeout', class: { kind: 'unknown' } },
};

/** The class of a parsed code; anything the reference does not list is unknown (ask status). */
export function classify(code: ResponseCode): CodeClass {
  return RESPONSE_CASES[`${code.http}-${code.case}`]?.class ?? { kind: 'unknown' };
}

/** `latestTransactionStatus` of the status inquiries (36, 51), reference §4.3. */
export const TRANSACTION_STATUS = {
  '00': 'success',
  '01': 'pending', // initiated
  '02': 'pending', // paying
  '03': 'pending',
  '04': 'refunded',
  '05': 'cancelled',
  '06': 'failed',
  '07': 'not_found',
  '08': 'expired',
  '09': 'failed', // rejected (Qoin)
} as const;
export type TransactionState = (typeof TRANSACTION_STATUS)[keyof typeof TRANSACTION_STATUS] | 'unknown';

export function transactionState(status: unknown): TransactionState {
  return typeof status === 'string' && status in TRANSACTION_STATUS
    ? TRANSACTION_STATUS[status as keyof typeof TRANSACTION_STATUS]
    : 'unknown';
}
