import { sql } from '@pay/persistence';
import { LedgerEventType, type RefundPayoutCommand } from '@pay/contracts';
import { payoutRefundedPostings } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/**
 * A failed payout: exactly what was debited goes back into available. In the books the amount
 * comes back from where the payout stood: payable, or the rail's in-transit once it was sent.
 */
export async function refundPayout(ctx: HandlerContext, cmd: RefundPayoutCommand): Promise<Decision> {
  const [debit] = await ctx.tx.query<{ availableDelta: bigint; amount: string; fee: string; rail: string | null }>(sql`
    SELECT e.available_delta AS "availableDelta", e.payload->>'amount' AS amount, e.payload->>'fee' AS fee,
           (SELECT s.memo->>'rail' FROM journal_entries s WHERE s.type = 'payout.sent' AND s.reference = e.reference) AS rail
      FROM ledger_events e
     WHERE e.merchant_id = ${ctx.merchantId} AND e.type = ${LedgerEventType.PayoutDebited} AND e.reference = ${cmd.payoutId}`);
  if (!debit) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  const refund = -debit.availableDelta;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutRefunded,
    reference: cmd.payoutId,
    availableDelta: refund,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, refunded: refund.toString(), reason: cmd.reason ?? null },
    postings: payoutRefundedPostings({
      merchantId: ctx.merchantId,
      amount: BigInt(debit.amount),
      fee: BigInt(debit.fee),
      inTransitRail: debit.rail,
    }),
  };
}
