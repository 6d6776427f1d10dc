import type { DayReport } from './day-report.query';

const rupiah = (sen: string | null) => {
  if (sen === null) return '';
  const n = BigInt(sen);
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};
/** Quoted when needed; a leading = + - @ neutralised so a spreadsheet never runs it. */
const cell = (v: string) => {
  const safe = /^[=+\-@]/.test(v) && !/^-?\d/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const DAY_REPORT_CSV_HEADER = [
  'record',
  'name',
  'count',
  'amount',
  'code',
  'side',
  'subject',
  'reference',
  'batch_id',
  'expected_amount',
  'actual_amount',
  'expected_date',
  'actual_date',
  'suspense',
  'status',
  'owner',
  'resolution',
  'detail',
];

/** The report's rows in the DAY_REPORT_CSV_HEADER layout: its summary rows, then one row per break. */
function dayReportRows(r: DayReport): string[][] {
  const rows: string[][] = [];
  const blank = Array<string>(DAY_REPORT_CSV_HEADER.length - 4).fill('');
  for (const [name, value] of Object.entries(r.summary)) {
    if (typeof value === 'object' && value !== null) {
      const v = value as Record<string, string | number>;
      rows.push([
        'summary',
        name,
        String(v.count ?? ''),
        rupiah(v.amount === undefined ? null : String(v.amount)),
        ...blank,
      ]);
      for (const extra of ['mdr', 'net'].filter((k) => k in v))
        rows.push(['summary', `${name}.${extra}`, '', rupiah(String(v[extra])), ...blank]);
    } else if (name === 'suspense') rows.push(['summary', name, '', rupiah(String(value)), ...blank]);
    else rows.push(['summary', name, String(value), '', ...blank]);
  }
  for (const b of r.breaks)
    rows.push([
      'break',
      '',
      '',
      '',
      b.code,
      b.side,
      b.subject,
      b.reference,
      b.batchId ?? '',
      rupiah(b.expectedAmount),
      rupiah(b.actualAmount),
      b.expectedDate ?? '',
      b.actualDate ?? '',
      rupiah(b.suspense),
      b.status,
      b.owner ?? '',
      b.resolution ?? '',
      b.detail,
    ]);
  return rows;
}

const csvText = (rows: string[][]) => rows.map((row) => row.map(cell).join(',')).join('\n') + '\n';

/**
 * A day's reconciliation report as CSV (docs/operations/reconciliation.md): `summary` rows (a side's
 * count and exact sum in Rupiah), then one `break` row per break.
 */
export function dayReportCsv(r: DayReport): string {
  return csvText([DAY_REPORT_CSV_HEADER, ...dayReportRows(r)]);
}

/** The day's file of every run (the finance export): the day report's layout after `acquirer` and `rail`. */
export const DAY_REPORTS_CSV_HEADER = ['acquirer', 'rail', ...DAY_REPORT_CSV_HEADER];

/**
 * Every run of a day as one CSV (the `reconciliation` finance export): run after run (by acquirer,
 * then rail), each its summary rows then its break rows, each row naming its acquirer and rail. A day
 * with no run: the header alone. `rows` counts the rows under the header.
 */
export function dayReportsCsv(reports: readonly DayReport[]): { csv: string; rows: number } {
  const rows = reports.flatMap((r) => dayReportRows(r).map((row) => [r.acquirer, r.rail, ...row]));
  return { csv: csvText([DAY_REPORTS_CSV_HEADER, ...rows]), rows: rows.length };
}
