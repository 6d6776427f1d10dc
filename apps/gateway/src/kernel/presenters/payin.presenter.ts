import { formatAmount, formatJakartaDateTime, pctMilliToPercent, refundView } from '@pay/domain';
import type { Payin, RefundView } from '@pay/persistence';

/** Status a merchant sees: a pending code past its expiry reads `expired`. */
export function payinStatus(p: Payin, now: Date): 'pending' | 'success' | 'failed' | 'expired' {
  if (p.status === 'pending' && p.expiresAt && p.expiresAt <= now) return 'expired';
  return p.status as 'pending' | 'success' | 'failed' | 'expired';
}

export function payinFeeObject(p: Payin) {
  return { amount: formatAmount(p.fee), percentage: pctMilliToPercent(p.feePctMilli), fixed: formatAmount(p.feeFixed) };
}

/** Spec 2.7; times in Asia/Jakarta. */
export function presentPayin(p: Payin, merchant: { id: number; name: string }, now: Date) {
  return {
    idMerchant: merchant.id,
    merchantName: merchant.name,
    merchantTrxId: p.merchantTrxId,
    platformTrxId: p.platformTrxId,
    amount: formatAmount(p.amount),
    fee: payinFeeObject(p),
    netAmount: formatAmount(p.amount - p.fee),
    status: payinStatus(p, now),
    success_at: p.successAt ? formatJakartaDateTime(p.successAt) : null,
    additionalInfo: { rrn: p.rrn, nmid: p.nmid },
  };
}

/** A refund (issue 44): the same shape as in its callback. */
export function presentRefund(r: RefundView) {
  return refundView(r);
}

/** The pay-in inquiry: spec 2.7 with the pay-in's refunds, what they paid back and what is left to refund. */
export function presentPayinWithRefunds(
  p: Payin,
  merchant: { id: number; name: string },
  now: Date,
  refunds: RefundView[],
) {
  const refunded = refunds.filter((r) => r.status === 'success').reduce((sum, r) => sum + r.amount, 0n);
  const taken = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0n);
  return {
    ...presentPayin(p, merchant, now),
    refundedAmount: formatAmount(refunded),
    refundableAmount: formatAmount(p.status === 'success' ? p.amount - taken : 0n),
    refunds: refunds.map(presentRefund),
  };
}

/** The generate answer: the code and what it will cost. */
export function presentGenerated(p: Payin, now: Date, qrImage?: string) {
  return {
    merchantTrxId: p.merchantTrxId,
    platformTrxId: p.platformTrxId,
    amount: formatAmount(p.amount),
    fee: payinFeeObject(p),
    netAmount: formatAmount(p.amount - p.fee),
    status: payinStatus(p, now),
    qrisPayload: p.qrisPayload,
    expiredAt: p.expiresAt ? formatJakartaDateTime(p.expiresAt) : null,
    ...(qrImage ? { qrImage } : {}),
  };
}
