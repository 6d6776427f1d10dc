import { type PayoutEventMessage, PayoutEventType } from '@pay/contracts';
import { formatAmount, formatJakartaDateTime } from '@pay/domain';

/**
 * The JSON body of a disbursement webhook (documented in the README). Built once per event and
 * stored, so every attempt sends, and signs, the same bytes.
 */
export function webhookBody(event: PayoutEventMessage, merchantName: string): string {
  const failed = event.type === PayoutEventType.DisbursementFailed;
  return JSON.stringify({
    id: event.eventId,
    type: event.type,
    createdAt: event.occurredAt,
    data: {
      idMerchant: event.merchantId,
      merchantName,
      merchantTrxId: event.merchantTrxId,
      platformTrxId: event.platformTrxId,
      accountNo: event.accountNo,
      accountName: event.accountName,
      bankCode: event.bankCode,
      amount: formatAmount(BigInt(event.amount)),
      fee: { amount: formatAmount(BigInt(event.fee)), percentage: 0, fixed: formatAmount(BigInt(event.feeFixed)) },
      totalAmount: formatAmount(BigInt(event.totalAmount)),
      status: event.status,
      success_at: event.successAt ? formatJakartaDateTime(new Date(event.successAt)) : null,
      ...(failed ? { failureReason: event.failureReason } : {}),
    },
  });
}
