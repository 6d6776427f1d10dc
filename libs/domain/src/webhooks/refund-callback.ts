import { formatAmount, type Minor } from '../money/money';
import { formatJakartaDateTime } from '../time/jakarta-time';

/** The callback of a refund's final status (success or failed). Never rename. */
export const PAYIN_REFUNDED_CALLBACK = 'payin.refunded';

/** A refund as the merchant sees it: `debiting` (the ledger deciding) reads `pending`. */
export type RefundStatus = 'pending' | 'success' | 'failed';

export interface RefundFacts {
  id: string;
  refundId: string;
  merchantTrxId: string;
  platformTrxId: string;
  amount: Minor;
  reason: string | null;
  status: string;
  refundNo: string | null;
  refundTime: string | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export function refundStatus(status: string): RefundStatus {
  return status === 'success' || status === 'failed' ? status : 'pending';
}

/** The refund in the API's answers, the pay-in inquiry and the callback (times in Asia/Jakarta). */
export function refundView(r: RefundFacts) {
  const status = refundStatus(r.status);
  return {
    refundId: r.refundId,
    merchantTrxId: r.merchantTrxId,
    platformTrxId: r.platformTrxId,
    amount: formatAmount(r.amount),
    reason: r.reason,
    status,
    refundNo: r.refundNo,
    refundTime: r.refundTime,
    createdAt: formatJakartaDateTime(r.createdAt),
    completedAt: r.completedAt ? formatJakartaDateTime(r.completedAt) : null,
    ...(status === 'failed' ? { failureReason: r.failureReason } : {}),
  };
}

/** One callback per refund's final status; stable across retries and resends. */
export function refundCallbackEventId(id: string, status: RefundStatus): string {
  return `payin.refund.${id}.${status}`;
}

/** The callback's JSON body: the pay-in callbacks' envelope (id, type, createdAt, data) around the refund. */
export function refundCallbackBody(r: RefundFacts, merchant: { id: number; name: string }, occurredAt: Date): string {
  return JSON.stringify({
    id: refundCallbackEventId(r.id, refundStatus(r.status)),
    type: PAYIN_REFUNDED_CALLBACK,
    createdAt: occurredAt.toISOString(),
    data: { idMerchant: merchant.id, merchantName: merchant.name, ...refundView(r) },
  });
}
