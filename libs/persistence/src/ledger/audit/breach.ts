import { Prisma } from '../../client/prisma';

/** The fact a breach broke. Stable names: scripts and dashboards match on them. */
export type BreachCheck =
  | 'balance.available'
  | 'balance.pending'
  | 'balance.last_seq'
  | 'balance.seq_gap'
  | 'balance.pending_payins'
  | 'balance.sandbox_received'
  | 'payin.event_missing'
  | 'payin.event_amount'
  | 'payin.event_merchant'
  | 'payin.event_unexpected'
  | 'payin.link'
  | 'payin.fee'
  | 'payin.event_sandbox'
  | 'settlement.event_missing'
  | 'settlement.event_amount'
  | 'settlement.event_merchant'
  | 'settlement.totals'
  | 'settlement.payins'
  | 'payout.debit_missing'
  | 'payout.debit_amount'
  | 'payout.debit_unexpected'
  | 'payout.refund_missing'
  | 'payout.refund_amount'
  | 'payout.refund_unexpected'
  | 'payout.reversal_missing'
  | 'payout.reversal_amount'
  | 'payout.reversal_unexpected'
  | 'payout.event_merchant'
  | 'payout.undecided'
  | 'event.orphan'
  | 'event.unknown_type'
  | 'event.undecided'
  | 'decision.event_missing'
  | 'decision.mismatch'
  | 'books.entry_unbalanced'
  | 'books.entry_missing'
  | 'books.entry_unexpected'
  | 'books.entry_amount'
  | 'books.account_fold'
  | 'books.merchant_account'
  | 'books.trial_balance'
  | 'books.entry_undecided'
  | 'books.decision_entry_missing'
  | 'books.payout_unconfirmed'
  | 'books.payout_confirmed_unexpected'
  // Warnings (VerifyReport.warnings), never breaches: suspense against the reconciliation's breaks
  | 'books.suspense_open_break'
  | 'books.suspense_unexplained';

export type BreachTable =
  | 'balances'
  | 'payins'
  | 'settlements'
  | 'disbursements'
  | 'ledger_events'
  | 'ledger_commands'
  | 'journal_entries'
  | 'accounts'
  | 'recon_breaks';

/** One fact that does not hold, naming the row an operator has to look at. Amounts are minor units (sen). */
export interface Breach {
  check: BreachCheck;
  table: BreachTable;
  /** The row's key: pay-in, settlement or disbursement id, event id, command id; the merchant id for balances */
  id: string;
  merchantId: number | null;
  expected: string;
  found: string;
}

export interface VerifyReport {
  merchantsChecked: number;
  eventsChecked: number;
  /** Source rows read beside the events */
  rowsChecked: { payins: number; settlements: number; disbursements: number; decisions: number };
  /** The books read (decision 0049): journal entries, their postings, the accounts */
  booksChecked: { entries: number; postings: number; accounts: number };
  /** Merchants whose digests disagreed somewhere and were examined row by row */
  merchantsExamined: number;
  breaches: Breach[];
  /** Facts younger than the grace period whose ledger command is presumably still on its way: not breaches */
  inFlight: Breach[];
  /**
   * Facts worth an operator's look that do not fail the audit: money in `suspense` held by open
   * reconciliation breaks, or not explained by them (unscoped audits only; docs/books.md)
   */
  warnings: Breach[];
  graceSeconds: number;
}

/** One line an operator can act on. */
export function describeBreach(b: Breach): string {
  const merchant = b.merchantId === null ? '' : ` (merchant ${b.merchantId})`;
  return `${b.table} ${b.id}${merchant} ${b.check}: expected ${b.expected}; found ${b.found}`;
}

/** What every row-level fact query selects; `in_flight` rows are reported apart. */
export interface BreachRow {
  check: BreachCheck;
  tbl: BreachTable;
  id: string;
  merchant_id: number | null;
  expected: string;
  found: string;
  in_flight: boolean;
}

export function toBreach(r: BreachRow): Breach {
  return { check: r.check, table: r.tbl, id: r.id, merchantId: r.merchant_id, expected: r.expected, found: r.found };
}

/** A canonical UUID as text (what the services write); anything else is not a row id. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** `reference` as a uuid when it is one, else NULL: casting a free-form reference would abort the audit. */
export const refUuid = (column: Prisma.Sql) =>
  Prisma.sql`(CASE WHEN ${column} ~ ${UUID_PATTERN} THEN ${column}::uuid END)`;
