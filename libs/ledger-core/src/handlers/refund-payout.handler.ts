import { LedgerEventType, type RefundPayoutCommand } from '@pay/contracts';
import { payoutRefundedPostings } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';
import { payoutInBooks } from './payout-standing';

/**
 * A failed payout: exactly what was debited goes back into available. In the books the amount
 * comes back from where the payout stood: payable, or the rail's in-transit once it was sent.
 */
export async function refundPayout(ctx: HandlerContext, cmd: RefundPayoutCommand): Promise<Decision> {
  const payout = await payoutInBooks(ctx.tx, ctx.merchantId, cmd.payoutId);
  if (!payout) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  if (payout.returned === LedgerEventType.PayoutReversed || payout.confirmed)
    return reject(RejectionReason.PayoutClosed, {
      payoutId: cmd.payoutId,
      closedBy: payout.returned ?? 'payout.confirmed',
    });
  const refund = -payout.availableDelta;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutRefunded,
    reference: cmd.payoutId,
    availableDelta: refund,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, refunded: refund.toString(), reason: cmd.reason ?? null },
    postings: payoutRefundedPostings({
      merchantId: ctx.merchantId,
      amount: payout.amount,
      fee: payout.fee,
      inTransitRail: payout.standing.at === 'in_transit' ? payout.standing.rail : null,
    }),
  };
}
