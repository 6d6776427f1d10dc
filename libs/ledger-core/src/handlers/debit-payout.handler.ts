import { type DebitPayoutCommand, LedgerEventType } from '@pay/contracts';
import { decideDebit } from '@pay/domain';
import { DISBURSEMENT_DECIDED_CHANNEL, sql, type SqlClient } from '@pay/persistence';
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
      project: (tx: SqlClient) => settleFunding(tx, cmd.payoutId, 'refused'),
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

/** The gateway waiting to answer the transfer hears of the decision when it commits (LISTEN/NOTIFY). */
async function settleFunding(tx: SqlClient, payoutId: string, to: 'pending' | 'refused'): Promise<void> {
  if (!UUID.test(payoutId)) return; // a payout that is not a merchant disbursement (tests, manual corrections)
  if (to === 'pending') {
    await tx.query(sql`
      WITH moved AS (
        UPDATE disbursements SET status = 'pending', debited_at = now(), next_check_at = now(), updated_at = now()
         WHERE id = ${payoutId}::uuid AND status = 'funding'
        RETURNING id::text)
      SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}, id) FROM moved`);
  } else {
    await tx.query(sql`
      WITH moved AS (
        UPDATE disbursements SET status = 'refused', refusal_reason = 'INSUFFICIENT_BALANCE', updated_at = now()
         WHERE id = ${payoutId}::uuid AND status = 'funding'
        RETURNING id::text)
      SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}, id) FROM moved`);
  }
}
