/**
 * The platform's chart of accounts (decision 0049). An account is named by a code; the code
 * says its kind, so the chart needs no table of its own and a posting to an account outside
 * it is refused (here and by the database's `account_kind`, which mirrors `accountKind`).
 *
 * Amounts posted are signed minor units: a debit is positive, a credit negative, and every
 * journal entry's postings sum to zero. An asset's or expense's balance is its debits minus its
 * credits; a liability's or revenue's is shown the other way round (credits minus debits), so
 * a merchant's `available` is exactly the balance of its liability account.
 */
export type AccountKind = 'asset' | 'liability' | 'revenue' | 'expense' | 'suspense';

export const Account = {
  /** What the platform owes a merchant, spendable: a liability */
  merchantAvailable: (merchantId: number) => `merchant:${merchantId}:available`,
  /** What the platform owes a merchant, not yet settled: a liability */
  merchantPending: (merchantId: number) => `merchant:${merchantId}:pending`,
  /** What an acquirer owes the platform for pay-ins it has not yet settled; `sandbox` for the sandbox payer's money */
  acquirerReceivable: (acquirer: string) => `acquirer:${acquirer}:receivable`,
  /** The platform's bank account behind a payout rail (its source account) */
  bankCash: (rail: string) => `bank:${rail}:cash`,
  /** Payouts debited from merchants and not yet sent to a bank: owed to beneficiaries */
  payoutsPayable: 'payouts:payable',
  /** Payouts sent to a rail's bank and not yet confirmed by it */
  payoutsInTransit: (rail: string) => `rail:${rail}:in_transit`,
  feeRevenuePayin: 'revenue:fees:payin',
  feeRevenuePayout: 'revenue:fees:payout',
  /** What a rail's bank charges per transfer */
  railFees: (rail: string) => `expense:rail_fees:${rail}`,
  /** The acquirer's discount (MDR) withheld from its settlements */
  acquirerMdr: (acquirer: string) => `expense:mdr:${acquirer}`,
  /** Manual adjustments the platform bears (goodwill, write-offs), each approved by two operators */
  adjustments: 'expense:adjustments',
  /** Breaks found by reconciliation, until resolved */
  suspense: 'suspense',
} as const;

/** The acquirer every real QRIS pay-in is booked against (one connected today; another gets its own name). */
export const QRIS_ACQUIRER_ACCOUNT = 'qris';
/** The sandbox payer's money (decision 0047): booked apart so the real receivable stays clean. */
export const SANDBOX_ACQUIRER_ACCOUNT = 'sandbox';

const NAME = '[a-z0-9][a-z0-9_-]{0,39}';
const PATTERNS: [RegExp, AccountKind][] = [
  [/^merchant:[1-9]\d{0,9}:(available|pending)$/, 'liability'],
  [new RegExp(`^acquirer:${NAME}:receivable$`), 'asset'],
  [new RegExp(`^bank:${NAME}:cash$`), 'asset'],
  [/^payouts:payable$/, 'liability'],
  [new RegExp(`^rail:${NAME}:in_transit$`), 'liability'],
  [/^revenue:fees:(payin|payout)$/, 'revenue'],
  [new RegExp(`^expense:(rail_fees|mdr):${NAME}$`), 'expense'],
  [/^expense:adjustments$/, 'expense'],
  [/^suspense$/, 'suspense'],
];

const known = new Map<string, AccountKind | null>();

/** The kind of an account of the chart, or null for a code outside it (remembered: the ledger asks for the same few codes all day). */
export function accountKind(code: string): AccountKind | null {
  const seen = known.get(code);
  if (seen !== undefined) return seen;
  const kind = PATTERNS.find(([pattern]) => pattern.test(code))?.[1] ?? null;
  if (known.size >= 100_000) known.clear();
  known.set(code, kind);
  return kind;
}

/** The merchant an account belongs to, or null for the platform's own. */
export function accountMerchant(code: string): number | null {
  const m = /^merchant:(\d+):/.exec(code);
  return m ? Number(m[1]) : null;
}

/** A rail or acquirer name as accounts spell it (lower case, no spaces). */
export function accountName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return cleaned || 'unnamed';
}

/**
 * The balance as people read it: debits minus credits for assets, expenses and suspense;
 * credits minus debits for liabilities and revenue.
 */
export function naturalBalance(code: string, debitMinusCredit: bigint): bigint {
  const kind = accountKind(code);
  return kind === 'liability' || kind === 'revenue' ? -debitMinusCredit : debitMinusCredit;
}
