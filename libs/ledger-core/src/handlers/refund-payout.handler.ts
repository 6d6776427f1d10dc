import { LedgerEventType, type RefundPayoutCommand } from '@pay/contracts';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/** A failed payout: exactly what was debited goes back into available. */
export async function refundPayout(ctx: HandlerContext, cmd: RefundPayoutCommand): Promise<Decision> {
  const debit = await ctx.tx.ledgerEvent.findUnique({
    where: { merchantId_type_reference: { merchantId: ctx.merchantId, type: LedgerEventType.PayoutDebited, reference: cmd.payoutId } },
    select: { availableDelta: true },
  });
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
