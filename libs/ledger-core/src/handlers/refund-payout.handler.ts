import { sql } from '@pay/persistence';
import { LedgerEventType, type RefundPayoutCommand } from '@pay/contracts';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/** A failed payout: exactly what was debited goes back into available. */
export async function refundPayout(ctx: HandlerContext, cmd: RefundPayoutCommand): Promise<Decision> {
  const [debit] = await ctx.tx.query<{ availableDelta: bigint }>(sql`
    SELECT available_delta AS "availableDelta" FROM ledger_events
     WHERE merchant_id = ${ctx.merchantId} AND type = ${LedgerEventType.PayoutDebited} AND reference = ${cmd.payoutId}`);
  if (!debit) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  const refund = -debit.availableDelta;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutRefunded,
    reference: cmd.payoutId,
    availableDelta: refund,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, refunded: refund.toString(), reason: cmd.reason ?? null },
  };
}
