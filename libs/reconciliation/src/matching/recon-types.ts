/** Amounts are minor units (sen); days are Jakarta days, `YYYY-MM-DD`. */

/** A line of the acquirer's QRIS settlement report: one pay-in it acquired. */
export interface ReportLine {
  /** 1-based position in the report as received */
  lineNo: number;
  rrn: string;
  /** The acquirer's own reference of the payment, when it gives one */
  referenceNo: string | null;
  batchId: string;
  gross: bigint;
  mdr: bigint;
  net: bigint;
  transactionDate: string | null;
  settlementDate: string;
}

/**
 * A refund line of the report: a refund the acquirer made (it paid the payer back) and netted
 * from a settlement batch.
 */
export interface RefundLine {
  /** 1-based position among the report's refund lines */
  lineNo: number;
  /** The refunded pay-in's RRN */
  rrn: string;
  /** The acquirer's refund number (SNAP 78's refundNo) */
  refundNo: string | null;
  /** Ours (SNAP 78's partnerRefundNo = payin_refunds.id), when the acquirer gives it back */
  partnerRefundNo: string | null;
  batchId: string;
  amount: bigint;
  /** The Jakarta day the acquirer refunded */
  refundDate: string | null;
}

/** An acquirer's settlement report as read: its payment lines and its refund lines. */
export interface SettlementReport {
  lines: ReportLine[];
  refunds: RefundLine[];
}

export type StatementLineType = 'CREDIT' | 'DEBIT';

/** A line of the bank statement of the platform's account behind a rail. */
export interface StatementLine {
  lineNo: number;
  /** The bank's transaction id: a settlement's batch id, a transfer's partnerReferenceNo, a fee's id */
  transactionId: string;
  type: StatementLineType;
  amount: bigint;
  date: string;
  remark: string;
}

/** A successful pay-in the ledger recorded against the acquirer. */
export interface LedgerPayin {
  payinId: string;
  rrn: string;
  amount: bigint;
  paidOn: string;
}

/** A refund the acquirer made (status success) of a pay-in it acquired, as the ledger holds it. */
export interface LedgerRefund {
  /** payin_refunds.id: the partnerRefundNo we sent */
  refundId: string;
  payinId: string;
  /** The refunded pay-in's RRN */
  rrn: string;
  amount: bigint;
  /** The Jakarta day the acquirer refunded (its refundTime; else when we learned it) */
  refundedOn: string;
}

/** A payout the books confirmed paid from the rail's bank account (a payout.confirmed entry). */
export interface LedgerPayout {
  reference: string;
  amount: bigint;
  confirmedOn: string;
}

/** A bank charge the books hold (a rail.fee entry): its feeRef is the statement line's transaction id. */
export interface LedgerRailFee {
  feeRef: string;
  amount: bigint;
}

/** A settlement batch of some stored report (many report lines, one bank credit). */
export interface ReportBatch {
  batchId: string;
  settlementDate: string;
  /** What the report says the acquirer pays for the batch: its lines' nets less its refunds, as reported */
  net: bigint;
  /** The refunds the report nets from the batch, as reported */
  refunds: bigint;
}

/**
 * Every kind of break, named once. Stable: stored on breaks, shown in the console and the day's
 * report, documented in docs/operations/reconciliation.md.
 */
export const BREAK_CODES = [
  'missing_in_report',
  'missing_in_statement',
  'missing_in_ledger',
  'unexpected',
  'amount_differs',
  'date_differs',
  'duplicate',
] as const;
export type BreakCode = (typeof BREAK_CODES)[number];

/** Which pair of sources disagree. */
export type BreakSide = 'report' | 'statement';

/** What a break is about. */
export const BREAK_SUBJECTS = [
  'payin',
  'report_line',
  'refund',
  'refund_line',
  'batch',
  'payout',
  'fee',
  'statement_line',
] as const;
export type BreakSubject = (typeof BREAK_SUBJECTS)[number];

export interface Break {
  /** The same break found again has the same key (a re-run updates it, never adds another) */
  key: string;
  code: BreakCode;
  side: BreakSide;
  subject: BreakSubject;
  /** RRN, refund id (partnerRefundNo, else the acquirer's refundNo), batch id, payout reference or the statement's transaction id */
  reference: string;
  batchId: string | null;
  /** The ledger's (or, between report and statement, the report's) value, and the other side's */
  expectedAmount: bigint | null;
  actualAmount: bigint | null;
  expectedDate: string | null;
  actualDate: string | null;
  /** Money the break puts into suspense (positive: owed to us; negative: received and not owed) */
  suspense: bigint;
  detail: string;
}

/** One acquirer settlement to book: the matched lines at the ledger's gross, its matched refunds at the ledger's amounts, and what the bank credited. */
export interface BatchBooking {
  batchId: string;
  settlementDate: string;
  /** Ledger gross of the matched lines (the receivable that leaves) */
  gross: bigint;
  /** The MDR the report withheld on those lines */
  mdr: bigint;
  /** The ledger's amounts of the refunds the batch netted that match ours (they already left the receivable) */
  refunds: bigint;
  /** gross - mdr - refunds: what the acquirer owed for them */
  net: bigint;
  /** What the bank credited for the batch */
  credited: bigint;
  /** credited - net: into suspense (negative: a shortfall the acquirer still owes) */
  difference: bigint;
  payinIds: string[];
  refundIds: string[];
}

export interface SideTotals {
  count: number;
  amount: bigint;
}

export interface ReconSummary {
  ledgerPayins: SideTotals;
  reportLines: SideTotals & { mdr: bigint; net: bigint };
  matchedPayins: SideTotals;
  /** The ledger's refunds made at the acquirer on the day */
  ledgerRefunds: SideTotals;
  /** The report's refund lines */
  reportRefunds: SideTotals;
  matchedRefunds: SideTotals;
  statementCredits: SideTotals;
  statementDebits: SideTotals;
  ledgerPayouts: SideTotals;
  ledgerRailFees: SideTotals;
  breaks: number;
  suspense: bigint;
}

export interface ReconResult {
  breaks: Break[];
  bookings: BatchBooking[];
  /** Fee lines of the statement not yet booked as rail fees: booked by the reconciliation */
  feesToBook: StatementLine[];
  summary: ReconSummary;
}
