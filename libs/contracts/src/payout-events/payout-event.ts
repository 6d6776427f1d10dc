/** Event types on Topic.PayoutEvents. Never rename. */
export enum PayoutEventType {
  DisbursementSucceeded = 'disbursement.succeeded',
  DisbursementFailed = 'disbursement.failed',
  /** A successful disbursement the beneficiary's bank returned: amount and fee given back */
  DisbursementReversed = 'disbursement.reversed',
}

/**
 * A disbursement reached its final status. Published once per final status through the
 * payout service's outbox; `eventId` is stable, so consumers (webhook delivery) de-duplicate on it.
 * Amounts are minor units as decimal strings.
 */
export interface PayoutEventMessage {
  eventId: string;
  type: PayoutEventType;
  disbursementId: string;
  merchantId: number;
  merchantTrxId: string;
  platformTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: string;
  /** the fee charged: the flat fee on success, 0 on failure */
  fee: string;
  /** the merchant's flat fee setting at the time of the inquiry */
  feeFixed: string;
  totalAmount: string;
  status: 'success' | 'failed' | 'reversed';
  successAt: string | null;
  failureReason: string | null;
  /** Reversed only: when and why */
  reversedAt?: string | null;
  reversalReason?: string | null;
  /** PayoutFailureCode on failure (absent in events written before it existed) */
  failureCode?: string | null;
  notifyUrl: string;
  logId?: string;
  occurredAt: string;
}
