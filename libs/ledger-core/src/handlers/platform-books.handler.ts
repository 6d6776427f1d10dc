import {
  type AdjustBooksCommand,
  BooksEntryType,
  LedgerEventType,
  PLATFORM_MERCHANT_ID,
  type RailFeeCommand,
  type SettleAcquirerCommand,
} from '@pay/contracts';
import { Account, acquirerSettledPostings, accountName, entry, type Posting, railFeePostings } from '@pay/domain';
import { sql, type SqlClient } from '@pay/persistence';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

async function booked(tx: SqlClient, type: BooksEntryType, reference: string): Promise<boolean> {
  const rows = await tx.query<{ id: bigint }>(sql`
    SELECT id FROM platform_entries WHERE type = ${type} AND reference = ${reference} AND merchant_id IS NULL`);
  return rows.length > 0;
}

/**
 * An acquirer's settlement arrived in the platform's bank: its pay-ins' gross, less the refunds it
 * netted (their refund entries already credited the receivable), leaves the receivable; its MDR is
 * an expense; the net (gross − MDR − refunds) is cash.
 */
export async function settleAcquirer(ctx: HandlerContext, cmd: SettleAcquirerCommand): Promise<Decision> {
  const acquirer = accountName(cmd.acquirer);
  const rail = accountName(cmd.rail);
  const reference = `${acquirer}:${cmd.settlementRef}`;
  const [gross, mdr, net, refunds] = [BigInt(cmd.gross), BigInt(cmd.mdr), BigInt(cmd.net), BigInt(cmd.refunds ?? '0')];
  if (gross !== mdr + net + refunds)
    return reject(RejectionReason.EntryInvalid, {
      problem: `gross ${gross} is not mdr ${mdr} + net ${net}${refunds > 0n ? ` + refunds ${refunds}` : ''}`,
    });
  if (await booked(ctx.tx, BooksEntryType.AcquirerSettled, reference))
    return reject(RejectionReason.DuplicateReference, { reference });
  return {
    kind: 'entry',
    entryType: BooksEntryType.AcquirerSettled,
    reference,
    memo: {
      acquirer,
      rail,
      settlementRef: cmd.settlementRef,
      settledOn: cmd.settledOn,
      gross: cmd.gross,
      mdr: cmd.mdr,
      net: cmd.net,
      ...(refunds > 0n ? { refunds: cmd.refunds } : {}),
    },
    postings: acquirerSettledPostings({ acquirer, rail, gross, mdr, net, refunds }),
  };
}

/** A bank's charge to the platform (a statement line): expense out of that bank account. */
export async function railFee(ctx: HandlerContext, cmd: RailFeeCommand): Promise<Decision> {
  const rail = accountName(cmd.rail);
  const reference = `${rail}:${cmd.feeRef}`;
  if (await booked(ctx.tx, BooksEntryType.RailFee, reference))
    return reject(RejectionReason.DuplicateReference, { reference });
  return {
    kind: 'entry',
    entryType: BooksEntryType.RailFee,
    reference,
    memo: { rail, feeRef: cmd.feeRef, amount: cmd.amount, description: cmd.description },
    postings: railFeePostings({ rail, amount: BigInt(cmd.amount) }),
  };
}

/**
 * A manual adjustment two operators agreed on. Its postings must balance and name accounts of
 * the chart; a merchant's only its available (pending is the nets of unsettled pay-ins, by
 * rule), and only the merchant the command is for. Moving a merchant's available makes it that
 * merchant's event, refused if it would overdraw.
 */
export async function adjustBooks(ctx: HandlerContext, cmd: AdjustBooksCommand): Promise<Decision> {
  let postings: Posting[];
  try {
    postings = entry(cmd.postings.map((p) => ({ account: p.account, amount: BigInt(p.amount) })));
  } catch (err) {
    return reject(RejectionReason.EntryInvalid, { problem: err instanceof Error ? err.message : String(err) });
  }
  if (postings.length === 0) return reject(RejectionReason.EntryInvalid, { problem: 'the postings move nothing' });
  const own = ctx.merchantId === PLATFORM_MERCHANT_ID ? null : Account.merchantAvailable(ctx.merchantId);
  const foreign = postings.find((p) => p.account.startsWith('merchant:') && p.account !== own);
  if (foreign)
    return reject(RejectionReason.EntryInvalid, {
      problem: `${foreign.account}: an adjustment moves only the available of the merchant it is for`,
    });
  const memo = { reason: cmd.reason, requestedBy: cmd.requestedBy, approvedBy: cmd.approvedBy };
  const merchantLine = postings.find((p) => p.account === own);
  if (!merchantLine) {
    if (await booked(ctx.tx, BooksEntryType.Adjustment, cmd.adjustmentId))
      return reject(RejectionReason.DuplicateReference, { reference: cmd.adjustmentId });
    return { kind: 'entry', entryType: BooksEntryType.Adjustment, reference: cmd.adjustmentId, memo, postings };
  }
  const availableDelta = -merchantLine.amount;
  if (ctx.balance.available + availableDelta < 0n)
    return reject(RejectionReason.InsufficientBalance, {
      available: ctx.balance.available.toString(),
      required: (-availableDelta).toString(),
    });
  return {
    kind: 'event',
    eventType: LedgerEventType.BalanceAdjusted,
    reference: cmd.adjustmentId,
    availableDelta,
    pendingDelta: 0n,
    payload: { adjustmentId: cmd.adjustmentId, amount: availableDelta.toString(), ...memo },
    postings,
  };
}
