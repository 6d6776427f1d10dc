import { type DebitPayoutCommand, LedgerEventType } from '@pay/contracts';
import { decideDebit } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/** amount + fee out of available, refused when available would go below zero. */
export async function debitPayout(ctx: HandlerContext, cmd: DebitPayoutCommand): Promise<Decision> {
  const amount = BigInt(cmd.amount);
  const fee = BigInt(cmd.fee);
  const decision = decideDebit(ctx.balance, amount, fee);
  if (!decision.ok) {
    return reject(RejectionReason.InsufficientBalance, {
      available: decision.available.toString(),
      required: decision.required.toString(),
    });
  }
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutDebited,
    reference: cmd.payoutId,
    availableDelta: decision.change.availableDelta,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, amount: cmd.amount, fee: cmd.fee, total: (amount + fee).toString() },
  };
}
