import { chargedFee } from '../disbursement/disbursement-status';
import { formatAmount, type Minor } from '../money/money';
import { formatJakartaDateTime } from '../time/jakarta-time';

/** Disbursement callback types (the `type` of the body and X-Callback-Event-Type). Never rename. */
export enum DisbursementCallbackType {
  DisbursementSucceeded = 'disbursement.succeeded',
  DisbursementFailed = 'disbursement.failed',
  /** A successful transfer the beneficiary's bank returned later: amount and fee are back in available */
  DisbursementReversed = 'disbursement.reversed',
}

/** The statuses a callback announces: the transfer's final outcome, and its reversal after success. */
export type DisbursementFinalStatus = 'success' | 'failed' | 'reversed';

const CALLBACK_TYPE: Record<DisbursementFinalStatus, DisbursementCallbackType> = {
  success: DisbursementCallbackType.DisbursementSucceeded,
  failed: DisbursementCallbackType.DisbursementFailed,
  reversed: DisbursementCallbackType.DisbursementReversed,
};

export function disbursementCallbackType(status: DisbursementFinalStatus): DisbursementCallbackType {
  return CALLBACK_TYPE[status];
}

/** One event per final status of a disbursement; stable across retries and resends (merchants de-duplicate on it). */
export function disbursementCallbackEventId(disbursementId: string, status: DisbursementFinalStatus): string {
  return `disbursement.${disbursementId}.${status}`;
}

/** What a disbursement callback says: the transfer at its final status, as plain values. */
export interface DisbursementCallbackFacts {
  disbursementId: string;
  merchantId: number;
  merchantName: string;
  merchantTrxId: string;
  platformTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
  /** The merchant's flat fee as quoted by the inquiry; charged on success only */
  feeFixed: Minor;
  status: DisbursementFinalStatus;
  successAt: Date | null;
  failureReason: string | null;
  /** Why it failed, as a stable code (PayoutFailureCode) */
  failureCode?: string | null;
  /** Reversed only: when, and why (the bank's return, as the operator recorded it) */
  reversedAt?: Date | null;
  reversalReason?: string | null;
  occurredAt: Date;
}

/**
 * The JSON body of a disbursement callback (the spec's callback, documented in the README): a
 * failed transfer was charged no fee, so its fee is 0 and its total the amount. Built once, in
 * the transaction that records the final status, and stored, so every attempt sends, and signs,
 * the same bytes. A reversed transfer was given back its amount and fee: its fee is 0 too, its
 * success_at stays (it did succeed), and it says when and why it was reversed.
 */
export function disbursementCallbackBody(f: DisbursementCallbackFacts): string {
  const failed = f.status === 'failed';
  const reversed = f.status === 'reversed';
  const fee = chargedFee(f.status, f.feeFixed);
  return JSON.stringify({
    id: disbursementCallbackEventId(f.disbursementId, f.status),
    type: disbursementCallbackType(f.status),
    createdAt: f.occurredAt.toISOString(),
    data: {
      idMerchant: f.merchantId,
      merchantName: f.merchantName,
      merchantTrxId: f.merchantTrxId,
      platformTrxId: f.platformTrxId,
      accountNo: f.accountNo,
      accountName: f.accountName,
      bankCode: f.bankCode,
      amount: formatAmount(f.amount),
      fee: { amount: formatAmount(fee), percentage: 0, fixed: formatAmount(f.feeFixed) },
      totalAmount: formatAmount(f.amount + fee),
      status: f.status,
      success_at: f.successAt ? formatJakartaDateTime(f.successAt) : null,
      ...(failed ? { failureReason: f.failureReason, ...(f.failureCode ? { failureCode: f.failureCode } : {}) } : {}),
      ...(reversed
        ? {
            reversed_at: f.reversedAt ? formatJakartaDateTime(f.reversedAt) : null,
            reversalReason: f.reversalReason ?? null,
          }
        : {}),
    },
  });
}
