import type { BatchRowBody } from '@pay/contracts/dashboard';

/** The columns a batch CSV has, in any order (a header line names them); accountName may be left empty. */
export const BATCH_CSV_COLUMNS = ['merchantTrxId', 'bankCode', 'accountNo', 'accountName', 'amount'] as const;
const REQUIRED = ['merchantTrxId', 'bankCode', 'accountNo', 'amount'] as const;

export type ParsedBatchCsv =
  | { kind: 'rows'; rows: BatchRowBody[] }
  | { kind: 'error'; error: 'empty' | 'missingColumns' | 'tooManyRows' | 'badQuotes'; detail?: string; line?: number };

/** RFC 4180 records: fields split on commas (or semicolons, Excel's in some locales), quoted fields may hold them, "" is a quote. */
function records(text: string, separator: string): string[][] | { badLine: number } {
  const out: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      line++;
    } else field += c;
  }
  if (quoted) return { badLine: line };
  if (field !== '' || row.length > 0) {
    row.push(field);
    out.push(row);
  }
  return out.filter((r) => r.some((f) => f.trim() !== ''));
}

/**
 * A batch CSV as the API's rows: the header names the columns (case-insensitive), each line a row;
 * values are sent as written (trimmed) so the server says what is wrong with each, the amount as a
 * number when it reads as one (1,000.50 with a thousands comma too), else as text, which the server refuses.
 */
export function parseBatchCsv(text: string, maxRows: number): ParsedBatchCsv {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const parsed = records(body, separator);
  if ('badLine' in parsed) return { kind: 'error', error: 'badQuotes', line: parsed.badLine };
  const [header, ...lines] = parsed;
  if (!header || lines.length === 0) return { kind: 'error', error: 'empty' };
  const names = header.map((h) => h.trim().toLowerCase());
  const index = Object.fromEntries(BATCH_CSV_COLUMNS.map((c) => [c, names.indexOf(c.toLowerCase())]));
  const missing = REQUIRED.filter((c) => index[c] < 0);
  if (missing.length) return { kind: 'error', error: 'missingColumns', detail: missing.join(', ') };
  if (lines.length > maxRows) return { kind: 'error', error: 'tooManyRows', detail: String(lines.length) };
  const cell = (line: string[], c: (typeof BATCH_CSV_COLUMNS)[number]) =>
    index[c] >= 0 ? (line[index[c]] ?? '').trim() : '';
  const rows = lines.map((line): BatchRowBody => {
    const amountText = cell(line, 'amount').replace(/,(?=\d{3}(\D|$))/g, '');
    const amount = /^\d+(\.\d+)?$/.test(amountText) ? Number(amountText) : (amountText as unknown as number);
    const accountName = cell(line, 'accountName');
    return {
      merchantTrxId: cell(line, 'merchantTrxId'),
      bankCode: cell(line, 'bankCode'),
      accountNo: cell(line, 'accountNo'),
      ...(accountName ? { accountName } : {}),
      amount,
    };
  });
  return { kind: 'rows', rows };
}
