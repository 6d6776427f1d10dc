import type { Minor } from '../money/money';
import { Account, accountKind, QRIS_ACQUIRER_ACCOUNT, SANDBOX_ACQUIRER_ACCOUNT } from './chart';

/** One line of a journal entry: a debit (positive) or credit (negative) of one account, in minor units. */
export interface Posting {
  account: string;
  amount: Minor;
}

export class UnbalancedEntryError extends Error {
  constructor(readonly postings: Posting[]) {
    super(`journal entry does not balance: ${postings.map((p) => `${p.account} ${p.amount}`).join(', ')}`);
    this.name = 'UnbalancedEntryError';
  }
}

/**
 * The postings of one entry, checked: every account in the chart, one line per account (lines
 * of the same account are added up), zero lines dropped, and the whole summing to zero.
 */
export function entry(lines: Posting[]): Posting[] {
  const byAccount = new Map<string, Minor>();
  for (const { account, amount } of lines) {
    if (accountKind(account) === null) throw new RangeError(`${account} is not an account of the chart`);
    byAccount.set(account, (byAccount.get(account) ?? 0n) + amount);
  }
  const postings = [...byAccount]
    .filter(([, amount]) => amount !== 0n)
    .map(([account, amount]) => ({ account, amount }));
  if (postings.reduce((sum, p) => sum + p.amount, 0n) !== 0n) throw new UnbalancedEntryError(postings);
  return postings;
}

const debit = (account: string, amount: Minor): Posting => ({ account, amount });
const credit = (account: string, amount: Minor): Posting => ({ account, amount: -amount });

/** A pay-in succeeded: the acquirer owes its gross; the merchant is owed the net (pending); the fee is earned. */
export function payinRecordedPostings(p: {
  merchantId: number;
  amount: Minor;
  fee: Minor;
  sandbox: boolean;
}): Posting[] {
  const acquirer = p.sandbox ? SANDBOX_ACQUIRER_ACCOUNT : QRIS_ACQUIRER_ACCOUNT;
  return entry([
    debit(Account.acquirerReceivable(acquirer), p.amount),
    credit(Account.merchantPending(p.merchantId), p.amount - p.fee),
    credit(Account.feeRevenuePayin, p.fee),
  ]);
}

/** Settled pay-ins: the merchant's net moves from pending to available. */
export function settlementCreditedPostings(p: { merchantId: number; net: Minor }): Posting[] {
  return entry([
    debit(Account.merchantPending(p.merchantId), p.net),
    credit(Account.merchantAvailable(p.merchantId), p.net),
  ]);
}

/**
 * A merchant's refund of a pay-in (issue 44): the acquirer pays the payer back and nets it from
 * what it owes us (its receivable, or the sandbox payer's), and the merchant's liability is
 * debited by as much: from pending (an unsettled pay-in), available, or both. The fee is kept.
 */
export function payinRefundedPostings(p: {
  merchantId: number;
  fromPending: Minor;
  fromAvailable: Minor;
  sandbox: boolean;
}): Posting[] {
  const acquirer = p.sandbox ? SANDBOX_ACQUIRER_ACCOUNT : QRIS_ACQUIRER_ACCOUNT;
  return entry([
    debit(Account.merchantPending(p.merchantId), p.fromPending),
    debit(Account.merchantAvailable(p.merchantId), p.fromAvailable),
    credit(Account.acquirerReceivable(acquirer), p.fromPending + p.fromAvailable),
  ]);
}

/** A refund the acquirer refused: the refund's entry undone, to the merchant's pending and available as given. */
export function payinRefundReturnedPostings(p: {
  merchantId: number;
  toPending: Minor;
  toAvailable: Minor;
  sandbox: boolean;
}): Posting[] {
  const acquirer = p.sandbox ? SANDBOX_ACQUIRER_ACCOUNT : QRIS_ACQUIRER_ACCOUNT;
  return entry([
    debit(Account.acquirerReceivable(acquirer), p.toPending + p.toAvailable),
    credit(Account.merchantPending(p.merchantId), p.toPending),
    credit(Account.merchantAvailable(p.merchantId), p.toAvailable),
  ]);
}

/** A payout debited: amount + fee leave the merchant's available; the amount is owed to the beneficiary, the fee earned. */
export function payoutDebitedPostings(p: { merchantId: number; amount: Minor; fee: Minor }): Posting[] {
  return entry([
    debit(Account.merchantAvailable(p.merchantId), p.amount + p.fee),
    credit(Account.payoutsPayable, p.amount),
    credit(Account.feeRevenuePayout, p.fee),
  ]);
}

/**
 * A failed payout: the debit undone. The amount comes back from where the payout stands (not
 * yet sent: payable; sent: the rail's in-transit), the fee is given back, the merchant's
 * available gets both.
 */
export function payoutRefundedPostings(p: {
  merchantId: number;
  amount: Minor;
  fee: Minor;
  inTransitRail?: string | null;
}): Posting[] {
  const from = p.inTransitRail ? Account.payoutsInTransit(p.inTransitRail) : Account.payoutsPayable;
  return entry([
    debit(from, p.amount),
    debit(Account.feeRevenuePayout, p.fee),
    credit(Account.merchantAvailable(p.merchantId), p.amount + p.fee),
  ]);
}

/** Where a payout's amount stands in the books: not yet sent, sent to a rail's bank, or confirmed by it. */
export type PayoutStanding = { at: 'payable' } | { at: 'in_transit'; rail: string } | { at: 'cash'; rail: string };

function standingAccount(s: PayoutStanding): string {
  if (s.at === 'payable') return Account.payoutsPayable;
  return s.at === 'in_transit' ? Account.payoutsInTransit(s.rail) : Account.bankCash(s.rail);
}

/** A payout handed to its rail's bank: owed to the beneficiary until then, in transit from now. */
export function payoutSentPostings(p: { amount: Minor; rail: string }): Posting[] {
  return entry([debit(Account.payoutsPayable, p.amount), credit(Account.payoutsInTransit(p.rail), p.amount)]);
}

/** The bank confirmed the payout: the amount leaves the platform's bank account (from wherever it stood). */
export function payoutConfirmedPostings(p: { amount: Minor; rail: string; from: PayoutStanding }): Posting[] {
  return entry([debit(standingAccount(p.from), p.amount), credit(Account.bankCash(p.rail), p.amount)]);
}

/**
 * A successful payout returned by the beneficiary's bank: the amount is back where the payout
 * stood (the bank cash once confirmed), the fee is given back, and the merchant's available
 * gets both (decision 0049).
 */
export function payoutReversedPostings(p: {
  merchantId: number;
  amount: Minor;
  fee: Minor;
  from: PayoutStanding;
}): Posting[] {
  return entry([
    debit(standingAccount(p.from), p.amount),
    debit(Account.feeRevenuePayout, p.fee),
    credit(Account.merchantAvailable(p.merchantId), p.amount + p.fee),
  ]);
}

/**
 * The acquirer settled pay-ins: the gross leaves its receivable, less the refunds it netted from
 * the batch (their refund entries already took them out of it); its MDR is an expense; the net
 * (gross − MDR − refunds) arrived in the bank.
 */
export function acquirerSettledPostings(p: {
  acquirer: string;
  rail: string;
  gross: Minor;
  mdr: Minor;
  net: Minor;
  /** The refunds the acquirer netted from the batch (default none) */
  refunds?: Minor;
}): Posting[] {
  const refunds = p.refunds ?? 0n;
  if (p.gross !== p.mdr + p.net + refunds)
    throw new RangeError(`gross ${p.gross} is not mdr ${p.mdr} + net ${p.net} + refunds ${refunds}`);
  return entry([
    debit(Account.bankCash(p.rail), p.net),
    debit(Account.acquirerMdr(p.acquirer), p.mdr),
    credit(Account.acquirerReceivable(p.acquirer), p.gross - refunds),
  ]);
}

/** A rail's bank charged the platform: an expense paid out of that bank account. */
export function railFeePostings(p: { rail: string; amount: Minor }): Posting[] {
  return entry([debit(Account.railFees(p.rail), p.amount), credit(Account.bankCash(p.rail), p.amount)]);
}
