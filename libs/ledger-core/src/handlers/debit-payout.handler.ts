import { type DebitPayoutCommand, LedgerEventType } from '@pay/contracts';
import { decideDebit } from '@pay/domain';
import type { TransactionClient } from '@pay/persistence';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * amount + fee out of available, refused when available would go below zero. The decision
 * also moves the disbursement it pays for out of `funding`, in the same transaction:
 * to `pending` (the payout service takes it from there) or to `refused`.
 */
export async function debitPayout(ctx: HandlerContext, cmd: DebitPayoutCommand): Promise<Decision> {
  const amount = BigInt(cmd.amount);
  const fee = BigInt(cmd.fee);
  const decision = decideDebit(ctx.balance, amount, fee);
  if (!decision.ok) {
    return {
      ...reject(RejectionReason.InsufficientBalance, { available: decision.available.toString(), required: decision.required.toString() }),
      project: (tx: TransactionClient) => settleFunding(tx, cmd.payoutId, 'refused'),
    };
  }
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutDebited,
    reference: cmd.payoutId,
    availableDelta: decision.change.availableDelta,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, amount: cmd.amount, fee: cmd.fee, total: (amount + fee).toString() },
    project: (tx) => settleFunding(tx, cmd.payoutId, 'pending'),
  };
}

async function settleFunding(tx: TransactionClient, payoutId: string, to: 'pending' | 'refused'): Promise<void> {
  if (!UUID.test(payoutId)) return; // a payout that is not a merchant disbursement (tests, manual corrections)
  if (to === 'pending') {
    await tx.$executeRaw`
      UPDATE disbursements SET status = 'pending', debited_at = now(), next_check_at = now(), updated_at = now()
       WHERE id = ${payoutId}::uuid AND status = 'funding'`;
  } else {
    await tx.$executeRaw`
      UPDATE disbursements SET status = 'refused', refusal_reason = 'INSUFFICIENT_BALANCE', updated_at = now()
       WHERE id = ${payoutId}::uuid AND status = 'funding'`;
  }
}
