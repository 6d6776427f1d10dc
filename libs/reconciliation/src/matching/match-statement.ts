import { pairRefunds } from './match-refunds';
import type {
  BatchBooking,
  Break,
  LedgerPayin,
  LedgerRefund,
  LedgerPayout,
  LedgerRailFee,
  ReportBatch,
  RefundLine,
  ReportLine,
  StatementLine,
} from './recon-types';

/** A statement line that is a bank charge: its id or remark says FEE (the layout in docs/operations/reconciliation.md). */
export function isFeeLine(line: StatementLine): boolean {
  return line.type === 'DEBIT' && (/^FEE[-\s]/i.test(line.transactionId) || /^FEE\b/i.test(line.remark));
}

/**
 * The batches of settlement lines: each batch's net is the sum of its lines' nets less the refunds
 * it nets, as reported (duplicates included: it is what the acquirer says it pays), its settlement
 * date the one most of its lines give (the earliest on a tie), so one moved line does not move its batch.
 */
export function batchesOf(lines: readonly ReportLine[], refundLines: readonly RefundLine[] = []): ReportBatch[] {
  const groups = new Map<string, ReportLine[]>();
  for (const l of lines) groups.set(l.batchId, [...(groups.get(l.batchId) ?? []), l]);
  return [...groups.entries()]
    .map(([batchId, ls]) => {
      const counts = new Map<string, number>();
      for (const l of ls) counts.set(l.settlementDate, (counts.get(l.settlementDate) ?? 0) + 1);
      const settlementDate = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
      const refunds = refundLines.filter((f) => f.batchId === batchId).reduce((s, f) => s + f.amount, 0n);
      return { batchId, settlementDate, net: ls.reduce((s, l) => s + l.net, 0n) - refunds, refunds };
    })
    .sort((a, b) => a.batchId.localeCompare(b.batchId));
}

export interface StatementMatch {
  breaks: Break[];
  bookings: BatchBooking[];
  feesToBook: StatementLine[];
}

function statementBreak(
  b: Omit<Break, 'side' | 'key' | 'batchId' | 'suspense' | 'expectedDate' | 'actualDate'> &
    Partial<Pick<Break, 'key' | 'batchId' | 'suspense' | 'expectedDate' | 'actualDate'>>,
): Break {
  return {
    side: 'statement',
    key: `${b.code}:statement:${b.subject}:${b.reference}`,
    batchId: null,
    suspense: 0n,
    expectedDate: null,
    actualDate: null,
    ...b,
  };
}

/**
 * The bank statement of one day against the settlement batches and the books: a credit is a
 * batch's settlement (many report lines to one credit, by batch id), or the return of a debit of
 * the same id (a transfer the bank failed); a debit is a confirmed payout (one to one by its
 * reference) or a bank charge. A batch credited is booked (its matched lines at the ledger's
 * gross; what the bank credited beyond or short of what was owed into suspense).
 */
export function matchStatement(input: {
  date: string;
  lines: readonly StatementLine[];
  /** Lines of every stored report whose batch is credited here or due to settle on `date` */
  settlementLines: readonly ReportLine[];
  /** The ledger's pay-ins of those lines' RRNs, whatever their day */
  payins: readonly LedgerPayin[];
  /** The refund lines of those batches (every stored report), and the ledger's refunds they may name */
  settlementRefunds?: readonly RefundLine[];
  refunds?: readonly LedgerRefund[];
  /** Payouts confirmed on `date`, and any whose reference the statement names */
  payouts: readonly LedgerPayout[];
  /** Rail fees booked on `date`, and any whose reference the statement names */
  railFees: readonly LedgerRailFee[];
}): StatementMatch {
  const breaks: Break[] = [];
  const bookings: BatchBooking[] = [];
  const feesToBook: StatementLine[] = [];
  const lines = [...input.lines].sort((a, b) => a.lineNo - b.lineNo);
  const refundLines = input.settlementRefunds ?? [];
  const batches = new Map(batchesOf(input.settlementLines, refundLines).map((b) => [b.batchId, b]));
  const refundPairs = pairRefunds(refundLines, input.refunds ?? []).matched;
  const payinByRrn = new Map(input.payins.map((p) => [p.rrn, p]));
  const debitIds = new Set(lines.filter((l) => l.type === 'DEBIT' && !isFeeLine(l)).map((l) => l.transactionId));
  const returned = new Set<string>();
  const credited = new Map<string, StatementLine>();

  for (const line of lines.filter((l) => l.type === 'CREDIT')) {
    const batch = batches.get(line.transactionId);
    if (batch) {
      if (credited.has(batch.batchId)) {
        breaks.push(
          statementBreak({
            key: `duplicate:statement:batch:${batch.batchId}:${line.lineNo}`,
            code: 'duplicate',
            subject: 'batch',
            reference: batch.batchId,
            batchId: batch.batchId,
            expectedAmount: null,
            actualAmount: line.amount,
            actualDate: line.date,
            detail: `line ${line.lineNo} credits batch ${batch.batchId} a second time`,
          }),
        );
        continue;
      }
      credited.set(batch.batchId, line);
      continue;
    }
    if (debitIds.has(line.transactionId) && !returned.has(line.transactionId)) {
      returned.add(line.transactionId);
      continue;
    }
    breaks.push(
      statementBreak({
        code: 'unexpected',
        subject: 'statement_line',
        reference: line.transactionId,
        expectedAmount: null,
        actualAmount: line.amount,
        actualDate: line.date,
        detail: `line ${line.lineNo}: a credit of no settlement batch (${line.remark})`,
      }),
    );
  }

  for (const batch of batches.values()) {
    const credit = credited.get(batch.batchId);
    if (!credit) {
      if (batch.settlementDate === input.date)
        breaks.push(
          statementBreak({
            code: 'missing_in_statement',
            subject: 'batch',
            reference: batch.batchId,
            batchId: batch.batchId,
            expectedAmount: batch.net,
            actualAmount: null,
            expectedDate: batch.settlementDate,
            detail: `batch ${batch.batchId} (settling ${batch.settlementDate}) was not credited`,
          }),
        );
      continue;
    }
    if (credit.amount !== batch.net)
      breaks.push(
        statementBreak({
          code: 'amount_differs',
          subject: 'batch',
          reference: batch.batchId,
          batchId: batch.batchId,
          expectedAmount: batch.net,
          actualAmount: credit.amount,
          actualDate: credit.date,
          suspense: batch.net - credit.amount,
          detail:
            credit.amount < batch.net
              ? `settled short by ${batch.net - credit.amount}`
              : `settled over by ${credit.amount - batch.net}`,
        }),
      );
    const refunds = refundPairs.filter((m) => m.line.batchId === batch.batchId).map((m) => m.refund);
    bookings.push(bookingOf(batch, credit, input.settlementLines, payinByRrn, refunds));
  }

  const payoutByRef = new Map(input.payouts.map((p) => [p.reference, p]));
  const debited = new Set<string>();
  const feeByRef = new Map(input.railFees.map((f) => [f.feeRef, f]));
  const feeLines = new Set<string>();
  for (const line of lines.filter((l) => l.type === 'DEBIT')) {
    if (isFeeLine(line)) {
      feeLines.add(line.transactionId);
      const fee = feeByRef.get(line.transactionId);
      if (!fee) feesToBook.push(line);
      else if (fee.amount !== line.amount)
        breaks.push(
          statementBreak({
            code: 'amount_differs',
            subject: 'fee',
            reference: line.transactionId,
            expectedAmount: fee.amount,
            actualAmount: line.amount,
            actualDate: line.date,
            detail: `the bank charged ${line.amount}, the books hold ${fee.amount}`,
          }),
        );
      continue;
    }
    if (debited.has(line.transactionId)) {
      breaks.push(
        statementBreak({
          key: `duplicate:statement:payout:${line.transactionId}:${line.lineNo}`,
          code: 'duplicate',
          subject: 'payout',
          reference: line.transactionId,
          expectedAmount: null,
          actualAmount: line.amount,
          actualDate: line.date,
          detail: `line ${line.lineNo} debits ${line.transactionId} a second time`,
        }),
      );
      continue;
    }
    debited.add(line.transactionId);
    const payout = payoutByRef.get(line.transactionId);
    if (!payout) {
      if (returned.has(line.transactionId)) continue; // debited and given back: a transfer the bank failed
      breaks.push(
        statementBreak({
          code: 'missing_in_ledger',
          subject: 'payout',
          reference: line.transactionId,
          expectedAmount: null,
          actualAmount: line.amount,
          actualDate: line.date,
          detail: `line ${line.lineNo}: a debit no confirmed payout names (${line.remark})`,
        }),
      );
      continue;
    }
    if (payout.amount !== line.amount)
      breaks.push(
        statementBreak({
          code: 'amount_differs',
          subject: 'payout',
          reference: payout.reference,
          expectedAmount: payout.amount,
          actualAmount: line.amount,
          actualDate: line.date,
          detail: `the bank debited ${line.amount}, the payout is ${payout.amount}`,
        }),
      );
  }
  for (const p of input.payouts)
    if (p.confirmedOn === input.date && !debited.has(p.reference))
      breaks.push(
        statementBreak({
          code: 'missing_in_statement',
          subject: 'payout',
          reference: p.reference,
          expectedAmount: p.amount,
          actualAmount: null,
          expectedDate: p.confirmedOn,
          detail: `payout ${p.reference} confirmed on ${p.confirmedOn} is not debited`,
        }),
      );
  for (const f of input.railFees)
    if (!feeLines.has(f.feeRef))
      breaks.push(
        statementBreak({
          code: 'missing_in_statement',
          subject: 'fee',
          reference: f.feeRef,
          expectedAmount: f.amount,
          actualAmount: null,
          detail: `rail fee ${f.feeRef} is in the books, not on the statement`,
        }),
      );
  return { breaks, bookings, feesToBook };
}

/**
 * The matched lines of a credited batch at the ledger's gross (first line of each RRN naming a
 * pay-in), less the refunds it nets that are ours at the ledger's amounts.
 */
function bookingOf(
  batch: ReportBatch,
  credit: StatementLine,
  lines: readonly ReportLine[],
  payinByRrn: Map<string, LedgerPayin>,
  refunds: readonly LedgerRefund[],
): BatchBooking {
  let gross = 0n;
  let mdr = 0n;
  const payinIds: string[] = [];
  const seen = new Set<string>();
  for (const l of [...lines].sort((a, b) => a.lineNo - b.lineNo)) {
    if (l.batchId !== batch.batchId || seen.has(l.rrn)) continue;
    seen.add(l.rrn);
    const payin = payinByRrn.get(l.rrn);
    if (!payin) continue;
    gross += payin.amount;
    mdr += l.mdr;
    payinIds.push(payin.payinId);
  }
  const refunded = refunds.reduce((s, r) => s + r.amount, 0n);
  const net = gross - mdr - refunded;
  return {
    batchId: batch.batchId,
    settlementDate: batch.settlementDate,
    gross,
    mdr,
    refunds: refunded,
    net,
    credited: credit.amount,
    difference: credit.amount - net,
    payinIds,
    refundIds: refunds.map((r) => r.refundId),
  };
}
