import { Readable } from 'node:stream';
import { formatAmountString } from '@pay/domain';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { csvSnapshot, type CsvSnapshot, openSnapshot } from '../recon/copy-snapshot';
import { rupiah, wib } from '../recon/csv-sql';
import { neutraliseFormulas, neutraliseFormulaText } from '../recon/formula-neutraliser';
import { type ExportTotals, type LedgerFileKind, RECON_COPY_SETTINGS } from '../recon/recon-export.repository';
import { TRIAL_BALANCE_ENTRIES_SQL, TRIAL_BALANCE_SQL, trialBalanceOf } from './trial-balance.query';

/** The journal file's columns, in order: one row per posting, the debit or the credit filled. */
export const JOURNAL_FILE_COLUMNS = [
  'entryId',
  'occurredAt',
  'businessDate',
  'type',
  'reference',
  'merchantId',
  'account',
  'debit',
  'credit',
] as const;

/** The trial balance file's columns, in order: one row per account with a balance, its debit or its credit. */
export const TRIAL_BALANCE_FILE_COLUMNS = ['account', 'kind', 'merchantId', 'debit', 'credit'] as const;

/** [00:00, next 00:00) WIB of the Jakarta day in $1 (or a literal), as the journal is read by time (the event store's BRIN index). */
const DAY = (d: string) =>
  `occurred_at >= (${d})::timestamp AT TIME ZONE 'Asia/Jakarta' AND occurred_at < ((${d}) + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'`;

/**
 * Every posting of the entries of the Jakarta day `date` (YYYY-MM-DD, validated by the caller), in
 * entry id order. Amounts are Rupiah as in the day files; times in WIB as theirs.
 */
export function journalCsvCopy(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  return `COPY (
    SELECT p.entry_id AS "entryId", ${wib('p.occurred_at')} AS "occurredAt", p.business_date AS "businessDate",
           ${neutraliseFormulas('p.type')} AS "type", ${neutraliseFormulas('p.reference')} AS "reference",
           p.merchant_id AS "merchantId", ${neutraliseFormulas('p.account')} AS "account",
           CASE WHEN p.amount > 0 THEN ${rupiah('p.amount')} END AS "debit",
           CASE WHEN p.amount < 0 THEN ${rupiah('-p.amount')} END AS "credit"
      FROM postings p
     WHERE ${DAY(`'${date}'::date`)}
     ORDER BY p.entry_id, p.account
  ) TO STDOUT (FORMAT csv, HEADER true)`;
}

/** The journal's totals on the file's snapshot: its postings, the day's entries, the debits and the credits. */
const JOURNAL_TOTALS = `
  SELECT now() AS as_of, count(*)::text AS n,
         (SELECT count(*) FROM journal_entries WHERE ${DAY('$1::date')})::text AS entries,
         coalesce(sum(amount) FILTER (WHERE amount > 0), 0)::text AS debit,
         coalesce(-sum(amount) FILTER (WHERE amount < 0), 0)::text AS credit
    FROM postings
   WHERE ${DAY('$1::date')}`;

export type BooksSummary = { totals: ExportTotals; asOf: Date };

/**
 * A books' file of the Jakarta day `date` as CSV bytes, with its totals from the same snapshot:
 * the journal (COPY, streamed as the day files are) or the trial balance at the day's close (the
 * statement `trialBalance` reads, one line per account, written here: a line per account, never
 * large, and ordered as the trial balance is). Call `done(err?)` when the CSV has been consumed.
 */
export async function streamBooksCsv(
  pool: Pool,
  date: string,
  kind: LedgerFileKind,
): Promise<CsvSnapshot<BooksSummary>> {
  const client = await openSnapshot(pool, RECON_COPY_SETTINGS);
  try {
    if (kind === 'journal') {
      const csv = client.query(copyTo(journalCsvCopy(date)));
      // Queued by the driver behind the COPY: it runs once the COPY has sent its last row.
      const summary = client
        .query<{ as_of: Date; n: string; entries: string; debit: string; credit: string }>(JOURNAL_TOTALS, [date])
        .then(({ rows: [r] }) => ({ totals: booksTotals(Number(r.n), r.entries, r.debit, r.credit), asOf: r.as_of }));
      return csvSnapshot(client, csv, summary);
    }
    const { rows } = await client.query<{ code: string; kind: string; balance: string }>(TRIAL_BALANCE_SQL, [date]);
    const {
      rows: [{ entries }],
    } = await client.query<{ entries: string }>(TRIAL_BALANCE_ENTRIES_SQL, [date]);
    const {
      rows: [{ as_of: asOf }],
    } = await client.query<{ as_of: Date }>('SELECT now() AS as_of');
    const tb = trialBalanceOf(date, rows, entries);
    const amount = (v: bigint) => (v === 0n ? '' : formatAmountString(v));
    const lines = [
      `${TRIAL_BALANCE_FILE_COLUMNS.join(',')}\n`,
      ...tb.lines.map(
        (l) => `${csvText(l.code)},${csvText(l.kind)},${l.merchantId ?? ''},${amount(l.debit)},${amount(l.credit)}\n`,
      ),
    ];
    const totals = booksTotals(tb.lines.length, String(tb.entries), String(tb.totalDebit), String(tb.totalCredit));
    return csvSnapshot(client, Readable.from(lines), Promise.resolve({ totals, asOf }));
  } catch (err) {
    client.release(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}

function booksTotals(rowCount: number, entries: string, debit: string, credit: string): ExportTotals {
  return {
    rowCount,
    gross: null,
    fees: null,
    net: null,
    entryCount: Number(entries),
    totalDebit: BigInt(debit),
    totalCredit: BigInt(credit),
  };
}

/** A text cell as COPY writes it (quoted when it holds a comma, quote or line break), neutralised first. */
function csvText(value: string): string {
  const v = neutraliseFormulaText(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
