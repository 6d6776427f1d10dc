import { type DebitPayoutCommand, LedgerEventType } from '@pay/contracts';
import { decideDebit, payoutDebitedPostings } from '@pay/domain';
import { type Decision, type FundingMove, type HandlerContext, reject, RejectionReason } from './decision';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * amount + fee out of available, refused when available would go below zero. The decision
 * also moves the disbursement it pays for out of `funding`, in the same transaction:
 * to `pending` (the payout service takes it from there) or to `refused`; the gateway waiting
 * to answer the transfer hears of it when the batch commits (LISTEN/NOTIFY, ledger-writes.ts).
 * Pure: no statement of its own, so a batch of debits is written in one statement.
 */
export function debitPayout(ctx: HandlerContext, cmd: DebitPayoutCommand): Promise<Decision> {
  const amount = BigInt(cmd.amount);
  const fee = BigInt(cmd.fee);
  const decision = decideDebit(ctx.balance, amount, fee);
  if (!decision.ok) {
    return Promise.resolve({
      ...reject(RejectionReason.InsufficientBalance, {
        available: decision.available.toString(),
        required: decision.required.toString(),
      }),
      funding: fundingMove(cmd.payoutId, 'refused'),
    });
  }
  return Promise.resolve({
    kind: 'event',
    eventType: LedgerEventType.PayoutDebited,
    reference: cmd.payoutId,
    availableDelta: decision.change.availableDelta,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, amount: cmd.amount, fee: cmd.fee, total: (amount + fee).toString() },
    postings: payoutDebitedPostings({ merchantId: ctx.merchantId, amount, fee }),
    funding: fundingMove(cmd.payoutId, 'pending'),
  });
}

/** A payout that is not a merchant disbursement (tests, manual corrections) has no row to move. */
function fundingMove(payoutId: string, to: FundingMove['to']): FundingMove | undefined {
  return UUID.test(payoutId) ? { disbursementId: payoutId, to } : undefined;
}
