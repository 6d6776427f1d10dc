import type { RefundLine, ReportLine, SettlementReport, StatementLine } from '../matching/recon-types';

/** A report or statement that cannot be read: which line and why (nothing of it is stored). */
export class SourceFormatError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `cannot read it: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    );
    this.name = 'SourceFormatError';
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const RUPIAH = /^\d{1,16}(\.\d{1,2})?$/;

/** "150000.00" (or a SNAP amount object) to sen. */
function sen(value: unknown): bigint | null {
  const v = typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value;
  if (typeof v !== 'string' || !RUPIAH.test(v.trim())) return null;
  const [whole, frac = ''] = v.trim().split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}

/** The Jakarta day of an ISO-8601 time with an offset, or a bare day. */
function jakartaDayOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (DAY.test(value)) return value;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return null;
  return new Date(t + 7 * 3_600_000).toISOString().slice(0, 10);
}

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

function columns(header: string[], required: string[]): Map<string, number> {
  const at = new Map(header.map((h, i) => [h.trim().toLowerCase(), i]));
  const missing = required.filter((c) => !at.has(c));
  if (missing.length) throw new SourceFormatError([`the header lacks ${missing.join(', ')}`]);
  return at;
}

export const REPORT_CSV_COLUMNS = [
  'record',
  'rrn',
  'reference_no',
  'transaction_date',
  'settlement_date',
  'batch_id',
  'gross',
  'mdr',
  'net',
  'refund_no',
  'partner_refund_no',
  'refund_date',
  'refund_amount',
] as const;
export const STATEMENT_CSV_COLUMNS = ['transaction_date', 'transaction_id', 'type', 'amount', 'remark'] as const;

/**
 * The acquirer's settlement report as CSV (docs/operations/reconciliation.md): Rupiah amounts, days
 * YYYY-MM-DD. A `record` column tells `payment` lines (the default: a file without the column is
 * all payments) from `refund` lines (the refund columns); a file without refund lines needs no
 * refund column.
 */
export function parseReportCsv(text: string): SettlementReport {
  const [header, ...rows] = csvRows(text);
  if (!header) throw new SourceFormatError(['the file is empty']);
  // Without `record` every line is a payment: the payment columns are wanted as they always were.
  const typed = header.some((h) => h.trim().toLowerCase() === 'record');
  const at = columns(
    header,
    typed ? ['rrn', 'batch_id'] : ['rrn', 'settlement_date', 'batch_id', 'gross', 'mdr', 'net'],
  );
  const problems: string[] = [];
  const report: SettlementReport = { lines: [], refunds: [] };
  const payments = ['settlement_date', 'gross', 'mdr', 'net'].filter((c) => !at.has(c));
  const refunds = ['refund_amount'].filter((c) => !at.has(c));
  rows.forEach((r, i) => {
    const get = (c: string) => (at.has(c) ? (r[at.get(c) as number] ?? '').trim() : '');
    const record = get('record').toLowerCase() || 'payment';
    if (record === 'refund') {
      if (refunds.length)
        return problems.push(`line ${i + 2}: a refund line, and the header lacks ${refunds.join(', ')}`);
      report.refunds.push(
        readRefundLine(
          report.refunds.length + 1,
          i + 2,
          {
            rrn: get('rrn'),
            refundNo: get('refund_no') || null,
            partnerRefundNo: get('partner_refund_no') || null,
            batchId: get('batch_id'),
            amount: get('refund_amount'),
            refundDate: get('refund_date') || null,
          },
          problems,
        ),
      );
      return;
    }
    if (record !== 'payment') return problems.push(`line ${i + 2}: record (payment or refund)`);
    if (payments.length)
      return problems.push(`line ${i + 2}: a payment line, and the header lacks ${payments.join(', ')}`);
    report.lines.push(
      readReportLine(
        report.lines.length + 1,
        i + 2,
        {
          rrn: get('rrn'),
          referenceNo: get('reference_no') || null,
          transactionDate: get('transaction_date') || null,
          settlementDate: get('settlement_date'),
          batchId: get('batch_id'),
          gross: get('gross'),
          mdr: get('mdr'),
          net: get('net'),
        },
        problems,
      ),
    );
  });
  if (problems.length) throw new SourceFormatError(problems);
  return report;
}

/**
 * The simulator acquirer's report over SNAP: `detailData[]` the payment lines, `refundData[]` (absent:
 * none) the refunds it netted, amounts as SNAP amount objects.
 */
export function parseSnapReport(body: Record<string, unknown>): SettlementReport {
  const detail = body.detailData;
  if (!Array.isArray(detail)) throw new SourceFormatError(['detailData is not a list']);
  const refundData = body.refundData ?? [];
  if (!Array.isArray(refundData)) throw new SourceFormatError(['refundData is not a list']);
  const problems: string[] = [];
  const lines = detail.map((d: Record<string, unknown>, i) =>
    readReportLine(
      i + 1,
      i + 1,
      {
        rrn: d.rrn,
        referenceNo: typeof d.referenceNo === 'string' ? d.referenceNo : null,
        transactionDate: d.transactionDate ?? null,
        settlementDate: d.settlementDate,
        batchId: d.batchId,
        gross: d.grossAmount,
        mdr: d.mdrAmount,
        net: d.netAmount,
      },
      problems,
    ),
  );
  const refunds = refundData.map((d: Record<string, unknown>, i) =>
    readRefundLine(
      i + 1,
      `refund ${i + 1}`,
      {
        rrn: d.rrn,
        refundNo: typeof d.refundNo === 'string' && d.refundNo ? d.refundNo : null,
        partnerRefundNo: typeof d.partnerRefundNo === 'string' && d.partnerRefundNo ? d.partnerRefundNo : null,
        batchId: d.batchId,
        amount: d.refundAmount,
        refundDate: d.refundDate ?? null,
      },
      problems,
    ),
  );
  if (problems.length) throw new SourceFormatError(problems);
  return { lines, refunds };
}

function readRefundLine(
  lineNo: number,
  where: number | string,
  f: Record<'rrn' | 'refundNo' | 'partnerRefundNo' | 'batchId' | 'amount' | 'refundDate', unknown>,
  problems: string[],
): RefundLine {
  const amount = sen(f.amount);
  const refundDate = f.refundDate === null ? null : jakartaDayOf(f.refundDate);
  const bad = [
    typeof f.rrn !== 'string' || f.rrn === '' ? 'rrn' : null,
    typeof f.batchId !== 'string' || f.batchId === '' ? 'batch_id' : null,
    amount === null || amount === 0n ? 'refund_amount' : null,
    f.refundDate !== null && refundDate === null ? 'refund_date' : null,
  ].filter(Boolean);
  if (bad.length) problems.push(`${typeof where === 'number' ? `line ${where}` : where}: ${bad.join(', ')}`);
  return {
    lineNo,
    rrn: String(f.rrn ?? ''),
    refundNo: (f.refundNo as string | null) ?? null,
    partnerRefundNo: (f.partnerRefundNo as string | null) ?? null,
    batchId: String(f.batchId ?? ''),
    amount: amount ?? 0n,
    refundDate,
  };
}

function readReportLine(
  lineNo: number,
  where: number,
  f: Record<
    'rrn' | 'referenceNo' | 'transactionDate' | 'settlementDate' | 'batchId' | 'gross' | 'mdr' | 'net',
    unknown
  >,
  problems: string[],
): ReportLine {
  const [gross, mdr, net] = [sen(f.gross), sen(f.mdr), sen(f.net)];
  const transactionDate = f.transactionDate === null ? null : jakartaDayOf(f.transactionDate);
  const settlementDate = jakartaDayOf(f.settlementDate);
  const bad = [
    typeof f.rrn !== 'string' || f.rrn === '' ? 'rrn' : null,
    typeof f.batchId !== 'string' || f.batchId === '' ? 'batch_id' : null,
    gross === null ? 'gross' : null,
    mdr === null ? 'mdr' : null,
    net === null ? 'net' : null,
    settlementDate === null ? 'settlement_date' : null,
    f.transactionDate !== null && transactionDate === null ? 'transaction_date' : null,
  ].filter(Boolean);
  if (bad.length) problems.push(`line ${where}: ${bad.join(', ')}`);
  return {
    lineNo,
    rrn: String(f.rrn ?? ''),
    referenceNo: (f.referenceNo as string | null) ?? null,
    batchId: String(f.batchId ?? ''),
    gross: gross ?? 0n,
    mdr: mdr ?? 0n,
    net: net ?? 0n,
    transactionDate,
    settlementDate: settlementDate ?? '',
  };
}

/** A bank statement as CSV (docs/operations/reconciliation.md); only the lines of `date` (Jakarta) are kept. */
export function parseStatementCsv(text: string, date: string): StatementLine[] {
  const [header, ...rows] = csvRows(text);
  if (!header) throw new SourceFormatError(['the file is empty']);
  const at = columns(header, ['transaction_date', 'transaction_id', 'type', 'amount']);
  const problems: string[] = [];
  const lines = rows.map((r, i) => {
    const get = (c: string) => (at.has(c) ? (r[at.get(c) as number] ?? '').trim() : '');
    return readStatementLine(
      i + 2,
      {
        transactionDate: get('transaction_date'),
        transactionId: get('transaction_id'),
        type: get('type').toUpperCase(),
        amount: get('amount'),
        remark: get('remark'),
      },
      problems,
    );
  });
  if (problems.length) throw new SourceFormatError(problems);
  return ofDay(lines, date);
}

/** SNAP 14's answer (`detailData[]`, newest first); only the lines of `date` (Jakarta) are kept, oldest first. */
export function parseSnapStatement(body: Record<string, unknown>, date: string): StatementLine[] {
  const detail = body.detailData;
  if (!Array.isArray(detail)) throw new SourceFormatError(['detailData is not a list']);
  const problems: string[] = [];
  const lines = [...detail].reverse().map((d: Record<string, unknown>, i) =>
    readStatementLine(
      i + 1,
      {
        transactionDate: d.transactionDate,
        transactionId: d.transactionId,
        type: d.type,
        amount: d.amount,
        remark: d.remark ?? '',
      },
      problems,
    ),
  );
  if (problems.length) throw new SourceFormatError(problems);
  return ofDay(lines, date);
}

function readStatementLine(
  where: number,
  f: Record<'transactionDate' | 'transactionId' | 'type' | 'amount' | 'remark', unknown>,
  problems: string[],
): StatementLine {
  const amount = sen(f.amount);
  const date = jakartaDayOf(f.transactionDate);
  const bad = [
    date === null ? 'transaction_date' : null,
    typeof f.transactionId !== 'string' || f.transactionId === '' ? 'transaction_id' : null,
    f.type !== 'CREDIT' && f.type !== 'DEBIT' ? 'type' : null,
    amount === null || amount === 0n ? 'amount' : null,
  ].filter(Boolean);
  if (bad.length) problems.push(`line ${where}: ${bad.join(', ')}`);
  return {
    lineNo: where,
    transactionId: String(f.transactionId ?? ''),
    type: f.type as 'CREDIT' | 'DEBIT',
    amount: amount ?? 0n,
    date: date ?? '',
    remark: typeof f.remark === 'string' ? f.remark : '',
  };
}

function ofDay(lines: StatementLine[], date: string): StatementLine[] {
  return lines.filter((l) => l.date === date).map((l, i) => ({ ...l, lineNo: i + 1 }));
}
