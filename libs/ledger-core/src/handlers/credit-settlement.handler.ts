import { sql } from '@pay/persistence';
import { type CreditSettlementCommand, LedgerEventType } from '@pay/contracts';
import {
  type Minor,
  SETTLEMENT_CREDITED_CALLBACK,
  settlementCreditedCallbackBody,
  settlementCreditedEventId,
  settlementCreditedPostings,
} from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/**
 * A set of recorded, unsettled pay-ins moves from pending to available, all or nothing: of each,
 * its net minus what refunds took from pending meanwhile (refunded_pending), so pending never
 * goes below zero for a pay-in refunded before it settled.
 */
export async function creditSettlement(ctx: HandlerContext, cmd: CreditSettlementCommand): Promise<Decision> {
  const ids = [...new Set(cmd.payinIds)];
  const rows = await ctx.tx.query<{
    id: string;
    amount: bigint;
    fee: bigint;
    net: bigint;
    refunded: bigint;
    merchantTrxId: string;
    platformTrxId: string;
  }>(sql`
    SELECT id::text AS id, amount, fee, (amount - fee - refunded_pending) AS net, refunded_pending AS refunded,
           merchant_trx_id AS "merchantTrxId", platform_trx_id AS "platformTrxId" FROM payins
     WHERE id = ANY(${ids}::uuid[]) AND merchant_id = ${ctx.merchantId}
       AND status = 'success' AND ledger_event_id IS NOT NULL AND settlement_id IS NULL
     ORDER BY id FOR UPDATE`);
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((r) => r.id));
    return reject(RejectionReason.PayinsNotSettleable, { payinIds: ids.filter((id) => !found.has(id)).join(',') });
  }
  const total = rows.reduce((sum, r) => sum + r.net, 0n);
  const gross = rows.reduce((sum, r) => sum + r.amount, 0n);
  const fees = rows.reduce((sum, r) => sum + r.fee, 0n);
  const refunds = rows.reduce((sum, r) => sum + r.refunded, 0n);
  const cutoff = cmd.cutoffAt ? new Date(cmd.cutoffAt) : null;
  return {
    kind: 'event',
    eventType: LedgerEventType.SettlementCredited,
    reference: cmd.settlementId,
    availableDelta: total,
    pendingDelta: -total,
    payload: {
      settlementId: cmd.settlementId,
      payinIds: ids,
      amount: total.toString(),
      gross: gross.toString(),
      fees: fees.toString(),
      ...(refunds > 0n ? { refunds: refunds.toString() } : {}),
      cutoffAt: cmd.cutoffAt ?? null,
    },
    postings: settlementCreditedPostings({ merchantId: ctx.merchantId, net: total }),
    project: async (tx) => {
      await tx.execute(sql`
        WITH settlement AS (
          INSERT INTO settlements (id, merchant_id, amount, payin_count, cutoff_at, gross, fees, refunds)
          VALUES (${cmd.settlementId}::uuid, ${ctx.merchantId}, ${total}, ${ids.length}, ${cutoff}, ${gross}, ${fees}, ${refunds})
        )
        UPDATE payins SET settlement_id = ${cmd.settlementId}::uuid WHERE id = ANY(${ids}::uuid[])`);
      // The settlement.credited callback, to the merchant's default callback URL (merchants.payin_callback_url);
      // without one (url '') only logged in its event log (webhook_deliveries_record_event).
      const [merchant] = await tx.query<{ name: string; url: string | null }>(
        sql`SELECT name, payin_callback_url AS url FROM merchants WHERE id = ${ctx.merchantId}`,
      );
      const now = new Date();
      const body = settlementCreditedCallbackBody({
        settlementId: cmd.settlementId,
        merchantId: ctx.merchantId,
        merchantName: merchant?.name ?? '',
        amount: total as Minor,
        gross: gross as Minor,
        fees: fees as Minor,
        refunds: refunds as Minor,
        cutoffAt: cutoff,
        payins: rows.map((r) => ({
          merchantTrxId: r.merchantTrxId,
          platformTrxId: r.platformTrxId,
          amount: r.amount as Minor,
          fee: r.fee as Minor,
          net: r.net as Minor,
        })),
        occurredAt: now,
      });
      await tx.execute(sql`
        INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
        VALUES (gen_random_uuid(), ${settlementCreditedEventId(cmd.settlementId)}, ${SETTLEMENT_CREDITED_CALLBACK}, ${ctx.merchantId},
                ${merchant?.url ?? ''}, ${body}, 'pending', ${now}, ${cmd.logId ?? null}, ${now}, ${now})
        ON CONFLICT (event_id) DO NOTHING`);
    },
  };
}
