import { Prisma, type PrismaClient } from '../client/prisma';

/** One account's line of the trial balance, in minor units (sen); debit and credit are what the balance is, one of them zero. */
export interface TrialBalanceLine {
  code: string;
  kind: string;
  merchantId: number | null;
  debit: bigint;
  credit: bigint;
}

export interface TrialBalance {
  /** The Jakarta day the balances close (inclusive), or null for now */
  asOf: string | null;
  lines: TrialBalanceLine[];
  totalDebit: bigint;
  totalCredit: bigint;
  /** Entries and postings up to asOf */
  entries: number;
}

/**
 * Each account's balance at the close of the Jakarta day $1 (null: now), as text: today's balances
 * (each account's folded row plus its unfolded deltas) less the postings of the entries booked after
 * that day. The finance export reads the very same statement (books-export.ts).
 */
export const TRIAL_BALANCE_SQL = `
  WITH later AS (
    SELECT account, sum(amount)::bigint AS amount
      FROM postings
     WHERE $1::date IS NOT NULL AND occurred_at >= ($1::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'
     GROUP BY account
  )
  SELECT b.code, b.kind, (b.balance - coalesce(l.amount, 0))::text AS balance
    FROM account_balances b LEFT JOIN later l ON l.account = b.code
   ORDER BY b.code`;

/** The journal entries up to the close of the day $1 (null: all), as text. */
export const TRIAL_BALANCE_ENTRIES_SQL = `
  SELECT count(*)::text AS entries FROM journal_entries
   WHERE $1::date IS NULL OR occurred_at < ($1::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'`;

/** The trial balance of what TRIAL_BALANCE_SQL and TRIAL_BALANCE_ENTRIES_SQL read. */
export function trialBalanceOf(
  date: string | null,
  rows: { code: string; kind: string; balance: string }[],
  entries: string,
): TrialBalance {
  const lines = rows
    .map((r) => ({ ...r, balance: BigInt(r.balance) }))
    .filter((r) => r.balance !== 0n)
    .sort((a, b) => order(a.kind) - order(b.kind) || a.code.localeCompare(b.code, 'en', { numeric: true }))
    .map((r) => ({
      code: r.code,
      kind: r.kind,
      merchantId: merchantOf(r.code),
      debit: r.balance > 0n ? r.balance : 0n,
      credit: r.balance < 0n ? -r.balance : 0n,
    }));
  return {
    asOf: date,
    lines,
    totalDebit: lines.reduce((s, l) => s + l.debit, 0n),
    totalCredit: lines.reduce((s, l) => s + l.credit, 0n),
    entries: Number(entries),
  };
}

/**
 * Every account's balance, debits and credits side by side, now or at the close of a Jakarta
 * day (TRIAL_BALANCE_SQL). Read in one snapshot; the totals are equal exactly when the books
 * balance (the audit proves each entry does).
 */
export async function trialBalance(prisma: PrismaClient, options: { date?: string } = {}): Promise<TrialBalance> {
  const date = options.date ?? null;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SET TRANSACTION READ ONLY');
      const rows = await tx.$queryRawUnsafe<{ code: string; kind: string; balance: string }[]>(TRIAL_BALANCE_SQL, date);
      const [{ entries }] = await tx.$queryRawUnsafe<{ entries: string }[]>(TRIAL_BALANCE_ENTRIES_SQL, date);
      return trialBalanceOf(date, rows, entries);
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 30_000, timeout: 10 * 60_000 },
  );
}

const KIND_ORDER = ['asset', 'liability', 'revenue', 'expense', 'suspense'];
const order = (kind: string) => KIND_ORDER.indexOf(kind) + 1 || 99;
const merchantOf = (code: string) => {
  const m = /^merchant:(\d+):/.exec(code);
  return m ? Number(m[1]) : null;
};
