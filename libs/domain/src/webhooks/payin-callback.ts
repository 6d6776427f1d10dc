import { pctMilliToPercent } from '../fees/fees';
import { formatAmount, type Minor } from '../money/money';
import { formatJakartaDateTime } from '../time/jakarta-time';

/** Pay-in callback types (the `type` of the body and X-Callback-Event-Type). Never rename. */
export enum PayinCallbackType {
  PayinSucceeded = 'payin.succeeded',
  PayinFailed = 'payin.failed',
  PayinExpired = 'payin.expired',
}

export type PayinFinalStatus = 'success' | 'failed' | 'expired';

const TYPE_OF: Record<PayinFinalStatus, PayinCallbackType> = {
  success: PayinCallbackType.PayinSucceeded,
  failed: PayinCallbackType.PayinFailed,
  expired: PayinCallbackType.PayinExpired,
};

export function payinCallbackType(status: PayinFinalStatus): PayinCallbackType {
  return TYPE_OF[status];
}

/** One event per final status of a pay-in; stable across retries and resends (merchants de-duplicate on it). */
export function payinCallbackEventId(payinId: string, status: PayinFinalStatus): string {
  return `payin.${payinId}.${status}`;
}

/** What a pay-in callback says: the pay-in after its change, as plain values. */
export interface PayinCallbackFacts {
  payinId: string;
  merchantId: number;
  merchantName: string;
  merchantTrxId: string;
  platformTrxId: string;
  amount: Minor;
  fee: Minor;
  feePctMilli: number;
  feeFixed: Minor;
  status: PayinFinalStatus;
  successAt: Date | null;
  expiresAt: Date | null;
  rrn: string | null;
  nmid: string | null;
  issuer: string | null;
  /** The acquirer's payment time (success and failure only) */
  paidAt: Date | null;
  failureReason: string | null;
  occurredAt: Date;
}

/**
 * The JSON body of a pay-in callback (documented in the README): the disbursement callback's
 * envelope (id, type, createdAt, data) around the pay-in as the inquiry shows it (spec 2.7),
 * plus expiredAt, issuer and paidAt, and failureReason on failure. Built once and stored, so every
 * attempt sends, and signs, the same bytes.
 */
export function payinCallbackBody(f: PayinCallbackFacts): string {
  return JSON.stringify({
    id: payinCallbackEventId(f.payinId, f.status),
    type: payinCallbackType(f.status),
    createdAt: f.occurredAt.toISOString(),
    data: {
      idMerchant: f.merchantId,
      merchantName: f.merchantName,
      merchantTrxId: f.merchantTrxId,
      platformTrxId: f.platformTrxId,
      amount: formatAmount(f.amount),
      fee: {
        amount: formatAmount(f.fee),
        percentage: pctMilliToPercent(f.feePctMilli),
        fixed: formatAmount(f.feeFixed),
      },
      netAmount: formatAmount(f.amount - f.fee),
      status: f.status,
      success_at: f.successAt ? formatJakartaDateTime(f.successAt) : null,
      expiredAt: f.expiresAt ? formatJakartaDateTime(f.expiresAt) : null,
      issuer: f.issuer,
      paidAt: f.paidAt ? f.paidAt.toISOString() : null,
      additionalInfo: { rrn: f.rrn, nmid: f.nmid },
      ...(f.status === 'failed' ? { failureReason: f.failureReason } : {}),
    },
  });
}
