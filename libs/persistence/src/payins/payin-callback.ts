import { payinCallbackBody, payinCallbackEventId, payinCallbackType, type PayinFinalStatus } from '@pay/domain';
import type { Payin } from '../generated/prisma/client';
import type { NewDelivery } from '../webhooks/webhook-delivery.repository';

/** What a pay-in callback needs of the merchant. */
export interface CallbackMerchant {
  name: string;
  payinCallbackUrl: string | null;
}

/**
 * The webhook delivery a pay-in's final status makes: the pay-in's own notifyUrl wins over the
 * merchant's default pay-in callback URL; neither, url '' (the event logged in the merchant's event
 * log, no delivery: webhook_deliveries_record_event drops the row). Written in the transaction of the status change (the delivery row is the outbox:
 * the workers' dispatcher sends it), unique by event id.
 */
export function payinCallbackDelivery(
  payin: Payin,
  merchant: CallbackMerchant,
  occurredAt: Date,
  paidAt: Date | null = null,
): NewDelivery {
  // No URL: the event is still written (the merchant's event log); the delivery row is not (the trigger drops it).
  const url = payin.notifyUrl ?? merchant.payinCallbackUrl ?? '';
  const status = payin.status as PayinFinalStatus;
  return {
    eventId: payinCallbackEventId(payin.id, status),
    eventType: payinCallbackType(status),
    merchantId: payin.merchantId,
    disbursementId: null,
    payinId: payin.id,
    url,
    logId: payin.logId ?? undefined,
    body: payinCallbackBody({
      payinId: payin.id,
      merchantId: payin.merchantId,
      merchantName: merchant.name,
      merchantTrxId: payin.merchantTrxId,
      platformTrxId: payin.platformTrxId,
      amount: payin.amount,
      fee: payin.fee,
      feePctMilli: payin.feePctMilli,
      feeFixed: payin.feeFixed,
      status,
      successAt: payin.successAt,
      expiresAt: payin.expiresAt,
      rrn: payin.rrn,
      nmid: payin.nmid,
      issuer: payin.issuer,
      paidAt,
      failureReason: payin.failureReason,
      occurredAt,
    }),
  };
}
