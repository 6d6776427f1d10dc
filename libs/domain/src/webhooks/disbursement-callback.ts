import { chargedFee } from '../disbursement/disbursement-status';
import { formatAmount, type Minor } from '../money/money';
import { formatJakartaDateTime } from '../time/jakarta-time';

/** Disbursement callback types (the `type` of the body and X-Callback-Event-Type). Never rename. */
export enum DisbursementCallbackType {
  DisbursementSucceeded = 'disbursement.succeeded',
  DisbursementFailed = 'disbursement.failed',
}

export type DisbursementFinalStatus = 'success' | 'failed';

export function disbursementCallbackType(status: DisbursementFinalStatus): DisbursementCallbackType {
  return status === 'success'
    ? DisbursementCallbackType.DisbursementSucceeded
    : DisbursementCallbackType.DisbursementFailed;
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
  occurredAt: Date;
}

/**
 * The JSON body of a disbursement callback (the spec's callback, documented in the README): a
 * failed transfer was charged no fee, so its fee is 0 and its total the amount. Built once, in
 * the transaction that records the final status, and stored, so every attempt sends, and signs,
 * the same bytes.
 */
export function disbursementCallbackBody(f: DisbursementCallbackFacts): string {
  const failed = f.status === 'failed';
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
    },
  });
}
