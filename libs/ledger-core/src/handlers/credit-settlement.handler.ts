import { sql } from '@pay/persistence';
import { type CreditSettlementCommand, LedgerEventType } from '@pay/contracts';
import { settlementCreditedPostings } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/**
 * A set of recorded, unsettled pay-ins moves from pending to available, all or nothing: of each,
 * its net minus what refunds took from pending meanwhile (refunded_pending), so pending never
 * goes below zero for a pay-in refunded before it settled.
 */
export async function creditSettlement(ctx: HandlerContext, cmd: CreditSettlementCommand): Promise<Decision> {
  const ids = [...new Set(cmd.payinIds)];
  const rows = await ctx.tx.query<{ id: string; amount: bigint; fee: bigint; net: bigint; refunded: bigint }>(sql`
    SELECT id::text AS id, amount, fee, (amount - fee - refunded_pending) AS net, refunded_pending AS refunded FROM payins
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
    },
  };
}
