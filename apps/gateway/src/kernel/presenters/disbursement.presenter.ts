import { chargedFee, type DisbursementStatus, formatAmount, formatJakartaDateTime, publicStatus } from '@pay/domain';
import type { Disbursement, DisbursementInquiry } from '@pay/persistence';

/** The fee object of spec 2.2 for a flat disbursement fee: percentage is always 0. */
export function flatFee(charged: bigint, fixed: bigint) {
  return { amount: formatAmount(charged), percentage: 0, fixed: formatAmount(fixed) };
}

/** Spec 2.5 */
export function presentInquiry(i: DisbursementInquiry) {
  return {
    merchantTrxId: i.merchantTrxId,
    platformTrxId: i.platformTrxId,
    accountNo: i.accountNo,
    accountName: i.accountName,
    bankCode: i.bankCode,
    amount: formatAmount(i.amount),
    fee: flatFee(i.fee, i.fee),
    totalAmount: formatAmount(i.amount + i.fee),
  };
}

/** Spec 2.6 */
export function presentTransfer(d: Disbursement) {
  const status = d.status as DisbursementStatus;
  const fee = chargedFee(status, d.fee);
  return {
    merchantTrxId: d.merchantTrxId,
    platformTrxId: d.platformTrxId,
    amount: formatAmount(d.amount),
    fee: flatFee(fee, d.fee),
    totalAmount: formatAmount(d.amount + fee),
    status: publicStatus(status, d.approval),
  };
}

/**
 * Spec 2.4; success_at in Asia/Jakarta; failureCode and failureReason on failed; reversed_at
 * (Asia/Jakarta, as success_at) and reversalReason on reversed, whose success_at stays.
 */
export function presentDisbursement(d: Disbursement, merchant: { id: number; name: string }) {
  const status = d.status as DisbursementStatus;
  const fee = chargedFee(status, d.fee);
  return {
    idMerchant: merchant.id,
    merchantName: merchant.name,
    merchantTrxId: d.merchantTrxId,
    platformTrxId: d.platformTrxId,
    accountNo: d.accountNo,
    accountName: d.accountName,
    amount: formatAmount(d.amount),
    fee: flatFee(fee, d.fee),
    totalAmount: formatAmount(d.amount + fee),
    status: publicStatus(status, d.approval),
    success_at: d.successAt ? formatJakartaDateTime(d.successAt) : null,
    // Our addition (the spec's fields above are unchanged): why it failed, on failed only.
    ...(status === 'failed' ? { failureCode: d.failureCode, failureReason: d.failureReason } : {}),
    ...(status === 'reversed'
      ? { reversed_at: d.reversedAt ? formatJakartaDateTime(d.reversedAt) : null, reversalReason: d.reversalReason }
      : {}),
  };
}
