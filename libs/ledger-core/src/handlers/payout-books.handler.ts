import {
  BooksEntryType,
  type ConfirmPayoutCommand,
  LedgerEventType,
  type ReversePayoutCommand,
  type SendPayoutCommand,
} from '@pay/contracts';
import { payoutConfirmedPostings, payoutReversedPostings, payoutSentPostings } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';
import { payoutInBooks, railAccountName } from './payout-standing';

/** A debited payout handed to its rail's bank: payable -> the rail's in-transit (a platform entry). */
export async function sendPayout(ctx: HandlerContext, cmd: SendPayoutCommand): Promise<Decision> {
  const payout = await payoutInBooks(ctx.tx, ctx.merchantId, cmd.payoutId);
  if (!payout) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  if (payout.sent) return reject(RejectionReason.DuplicateReference, { reference: cmd.payoutId });
  if (payout.returned)
    return reject(RejectionReason.PayoutClosed, { payoutId: cmd.payoutId, closedBy: payout.returned });
  const rail = railAccountName(cmd.rail);
  return {
    kind: 'entry',
    entryType: BooksEntryType.PayoutSent,
    reference: cmd.payoutId,
    memo: { rail, amount: payout.amount.toString() },
    postings: payoutSentPostings({ amount: payout.amount, rail }),
  };
}

/** The bank confirmed the payout: out of the platform's bank account, from where it stood (a platform entry). */
export async function confirmPayout(ctx: HandlerContext, cmd: ConfirmPayoutCommand): Promise<Decision> {
  const payout = await payoutInBooks(ctx.tx, ctx.merchantId, cmd.payoutId);
  if (!payout) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  if (payout.confirmed) return reject(RejectionReason.DuplicateReference, { reference: cmd.payoutId });
  if (payout.returned)
    return reject(RejectionReason.PayoutClosed, { payoutId: cmd.payoutId, closedBy: payout.returned });
  const rail = railAccountName(cmd.rail);
  return {
    kind: 'entry',
    entryType: BooksEntryType.PayoutConfirmed,
    reference: cmd.payoutId,
    memo: { rail, amount: payout.amount.toString(), ...(payout.sent ? {} : { sentUnbooked: true }) },
    postings: payoutConfirmedPostings({ amount: payout.amount, rail, from: payout.standing }),
  };
}

/**
 * A successful payout returned by the beneficiary's bank: the merchant gets back everything the
 * debit took (a merchant event, `payout.reversed`). Refused for a payout never debited or
 * already refunded; a second reversal is the same reference twice.
 */
export async function reversePayout(ctx: HandlerContext, cmd: ReversePayoutCommand): Promise<Decision> {
  const payout = await payoutInBooks(ctx.tx, ctx.merchantId, cmd.payoutId);
  if (!payout) return reject(RejectionReason.PayoutNotDebited, { payoutId: cmd.payoutId });
  if (payout.returned)
    return reject(RejectionReason.PayoutClosed, { payoutId: cmd.payoutId, closedBy: payout.returned });
  const back = -payout.availableDelta;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayoutReversed,
    reference: cmd.payoutId,
    availableDelta: back,
    pendingDelta: 0n,
    payload: { payoutId: cmd.payoutId, reversed: back.toString(), reason: cmd.reason },
    postings: payoutReversedPostings({
      merchantId: ctx.merchantId,
      amount: payout.amount,
      fee: payout.fee,
      from: payout.standing,
    }),
  };
}
