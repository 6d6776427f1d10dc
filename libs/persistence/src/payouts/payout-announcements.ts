import { type PayoutEventMessage, PayoutEventType, Topic } from '@pay/contracts';
import {
  chargedFee,
  disbursementCallbackBody,
  disbursementCallbackEventId,
  disbursementCallbackType,
  type DisbursementFinalStatus,
} from '@pay/domain';
import type { Disbursement } from '../generated/prisma/client';
import { type OutboxMessage, outboxHeaders } from '../outbox/outbox-writer';
import type { NewDelivery } from '../webhooks/webhook-delivery.repository';

/**
 * A disbursement's new status as it is announced: the payout event (payout.events) and the
 * merchant's callback. Success and failure are the payout service's; a reversal (a success the
 * beneficiary's bank returned) the back office's.
 */
export type PayoutAnnouncement = { disbursement: Disbursement & { merchantName: string } } & (
  | { status: 'success'; at: Date }
  | { status: 'failed'; at: Date; reason: string; code: string }
  /** `at`: the reversal's time; the success time stays the row's */
  | { status: 'reversed'; at: Date; reason: string }
);

const EVENT_TYPE: Record<DisbursementFinalStatus, PayoutEventType> = {
  success: PayoutEventType.DisbursementSucceeded,
  failed: PayoutEventType.DisbursementFailed,
  reversed: PayoutEventType.DisbursementReversed,
};

const successAtOf = (a: PayoutAnnouncement): Date | null =>
  a.status === 'success' ? a.at : a.status === 'reversed' ? a.disbursement.successAt : null;

/** The payout event published on payout.events for whoever follows disbursements' outcomes. */
export function payoutEventMessage(a: PayoutAnnouncement, occurredAt: Date): OutboxMessage {
  const d = a.disbursement;
  const fee = chargedFee(a.status, d.fee);
  const eventId = disbursementCallbackEventId(d.id, a.status);
  const message: PayoutEventMessage = {
    eventId,
    type: EVENT_TYPE[a.status],
    disbursementId: d.id,
    merchantId: d.merchantId,
    merchantTrxId: d.merchantTrxId,
    platformTrxId: d.platformTrxId,
    bankCode: d.bankCode,
    accountNo: d.accountNo,
    accountName: d.accountName,
    amount: d.amount.toString(),
    fee: fee.toString(),
    feeFixed: d.fee.toString(),
    totalAmount: (d.amount + fee).toString(),
    status: a.status,
    successAt: successAtOf(a)?.toISOString() ?? null,
    failureReason: a.status === 'failed' ? a.reason : null,
    failureCode: a.status === 'failed' ? a.code : null,
    ...(a.status === 'reversed' ? { reversedAt: a.at.toISOString(), reversalReason: a.reason } : {}),
    notifyUrl: d.notifyUrl,
    logId: d.logId ?? undefined,
    occurredAt: occurredAt.toISOString(),
  };
  return {
    topic: Topic.PayoutEvents,
    key: String(d.merchantId),
    payload: message,
    headers: outboxHeaders(eventId, d.logId),
  };
}

/** The merchant's callback of the status, to its notifyUrl (unique by event id, like the event). */
export function payoutCallbackDelivery(a: PayoutAnnouncement, occurredAt: Date): NewDelivery {
  const d = a.disbursement;
  return {
    eventId: disbursementCallbackEventId(d.id, a.status),
    eventType: disbursementCallbackType(a.status),
    merchantId: d.merchantId,
    disbursementId: d.id,
    url: d.notifyUrl,
    logId: d.logId ?? undefined,
    body: disbursementCallbackBody({
      disbursementId: d.id,
      merchantId: d.merchantId,
      merchantName: d.merchantName,
      merchantTrxId: d.merchantTrxId,
      platformTrxId: d.platformTrxId,
      bankCode: d.bankCode,
      accountNo: d.accountNo,
      accountName: d.accountName,
      amount: d.amount,
      feeFixed: d.fee,
      status: a.status,
      successAt: successAtOf(a),
      failureReason: a.status === 'failed' ? a.reason : null,
      failureCode: a.status === 'failed' ? a.code : null,
      ...(a.status === 'reversed' ? { reversedAt: a.at, reversalReason: a.reason } : {}),
      occurredAt,
    }),
  };
}
