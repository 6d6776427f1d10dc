import { matchRefunds } from './match-refunds';
import { matchReport } from './match-report';
import { matchStatement } from './match-statement';
import type {
  LedgerPayin,
  LedgerPayout,
  LedgerRailFee,
  LedgerRefund,
  ReconResult,
  RefundLine,
  ReportLine,
  SideTotals,
  StatementLine,
} from './recon-types';

const ONE_DAY_MS = 86_400_000;

/** `date` plus `days` calendar days (`YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * ONE_DAY_MS).toISOString().slice(0, 10);
}

export interface DayInput {
  date: string;
  /** The acquirer settles a day's pay-ins this many days later (T+n) */
  settlementLagDays: number;
  /** The ledger's pay-ins paid on `date` through the acquirer */
  payins: readonly LedgerPayin[];
  /** The acquirer's report of `date`'s pay-ins; null when none was ingested (that half is not reconciled) */
  report: readonly ReportLine[] | null;
  /** The refund lines of that report (default none) */
  reportRefunds?: readonly RefundLine[];
  /**
   * The ledger's refunds made at the acquirer on `date`, and those the report's or the settled
   * batches' refund lines name (by id or the pay-in's RRN), whatever their day
   */
  refunds?: readonly LedgerRefund[];
  /** Our refund ids that a stored report of another day nets (not missing from this one) */
  refundsReportedElsewhere?: ReadonlySet<string>;
  /** The statement of `date`; null when none was ingested */
  statement: readonly StatementLine[] | null;
  /** See matchStatement */
  settlementLines: readonly ReportLine[];
  settlementPayins: readonly LedgerPayin[];
  /** The refund lines of those batches (default none) */
  settlementRefunds?: readonly RefundLine[];
  payouts: readonly LedgerPayout[];
  railFees: readonly LedgerRailFee[];
}

const totals = <T>(xs: readonly T[], amount: (x: T) => bigint): SideTotals => ({
  count: xs.length,
  amount: xs.reduce((s, x) => s + amount(x), 0n),
});

/** A day's three-way reconciliation: the report against the ledger, the statement against both. */
export function reconcileDay(input: DayInput): ReconResult {
  const report = input.report
    ? matchReport({
        payins: input.payins,
        lines: input.report,
        expectedSettlementDate: addDays(input.date, input.settlementLagDays),
      })
    : { breaks: [], matched: [] };
  const refunds = input.report
    ? matchRefunds({
        date: input.date,
        lines: input.reportRefunds ?? [],
        refunds: input.refunds ?? [],
        reportedElsewhere: input.refundsReportedElsewhere,
      })
    : { breaks: [], matched: [] };
  const statement = input.statement
    ? matchStatement({
        date: input.date,
        lines: input.statement,
        settlementLines: input.settlementLines,
        payins: input.settlementPayins,
        settlementRefunds: input.settlementRefunds,
        refunds: input.refunds,
        payouts: input.payouts,
        railFees: input.railFees,
      })
    : { breaks: [], bookings: [], feesToBook: [] };
  const breaks = [...report.breaks, ...refunds.breaks, ...statement.breaks];
  const lines = input.statement ?? [];
  const reportLines = input.report ?? [];
  return {
    breaks,
    bookings: statement.bookings,
    feesToBook: statement.feesToBook,
    summary: {
      ledgerPayins: totals(input.payins, (p) => p.amount),
      reportLines: {
        ...totals(reportLines, (l) => l.gross),
        mdr: reportLines.reduce((s, l) => s + l.mdr, 0n),
        net: reportLines.reduce((s, l) => s + l.net, 0n),
      },
      matchedPayins: totals(report.matched, (m) => m.payin.amount),
      ledgerRefunds: totals(
        (input.refunds ?? []).filter((r) => r.refundedOn === input.date),
        (r) => r.amount,
      ),
      reportRefunds: totals(input.reportRefunds ?? [], (l) => l.amount),
      matchedRefunds: totals(refunds.matched, (m) => m.refund.amount),
      statementCredits: totals(
        lines.filter((l) => l.type === 'CREDIT'),
        (l) => l.amount,
      ),
      statementDebits: totals(
        lines.filter((l) => l.type === 'DEBIT'),
        (l) => l.amount,
      ),
      ledgerPayouts: totals(
        input.payouts.filter((p) => p.confirmedOn === input.date),
        (p) => p.amount,
      ),
      ledgerRailFees: totals(input.railFees, (f) => f.amount),
      breaks: breaks.length,
      suspense: -statement.bookings.reduce((s, b) => s + b.difference, 0n),
    },
  };
}
