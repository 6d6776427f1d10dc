import type { Break, LedgerPayin, ReportLine } from './recon-types';

/** A break about a line of the report itself (repeated, or naming no pay-in): the line's values on its side. */
function lineBreak(
  line: ReportLine,
  code: 'duplicate' | 'missing_in_ledger',
  keySuffix: string,
  suspense: bigint,
  detail: string,
): Break {
  return {
    key: `${code}:report:${line.rrn}${keySuffix}`,
    code,
    side: 'report',
    subject: 'report_line',
    reference: line.rrn,
    batchId: line.batchId,
    expectedAmount: null,
    actualAmount: line.gross,
    expectedDate: null,
    actualDate: line.settlementDate,
    suspense,
    detail,
  };
}

export interface ReportMatch {
  breaks: Break[];
  /** The report's first line of each RRN that names a ledger pay-in */
  matched: { line: ReportLine; payin: LedgerPayin }[];
}

/**
 * The acquirer's settlement report against the ledger's pay-ins of the same day, one to one by
 * RRN: a pay-in without a line, a line without a pay-in, a second line of one RRN, a gross that
 * is not the pay-in's amount (or a line whose MDR and net do not make its gross), a settlement
 * date other than the one expected.
 */
export function matchReport(input: {
  payins: readonly LedgerPayin[];
  lines: readonly ReportLine[];
  expectedSettlementDate: string;
}): ReportMatch {
  const breaks: Break[] = [];
  const matched: ReportMatch['matched'] = [];
  const byRrn = new Map<string, LedgerPayin>();
  for (const p of input.payins) byRrn.set(p.rrn, p);
  const seen = new Map<string, ReportLine>();

  for (const line of [...input.lines].sort((a, b) => a.lineNo - b.lineNo)) {
    const first = seen.get(line.rrn);
    if (first) {
      // Paid twice: the second net was received and is not owed.
      breaks.push(
        lineBreak(
          line,
          'duplicate',
          `:${line.lineNo}`,
          -line.net,
          `line ${line.lineNo} repeats RRN ${line.rrn} of line ${first.lineNo}`,
        ),
      );
      continue;
    }
    seen.set(line.rrn, line);
    const payin = byRrn.get(line.rrn);
    if (!payin) {
      breaks.push(
        lineBreak(
          line,
          'missing_in_ledger',
          '',
          -line.net,
          `line ${line.lineNo}: no pay-in of the day has RRN ${line.rrn}`,
        ),
      );
      continue;
    }
    matched.push({ line, payin });
    const owed = payin.amount - line.mdr;
    if (line.gross !== payin.amount || line.mdr + line.net !== line.gross)
      breaks.push({
        key: `amount_differs:report:${line.rrn}`,
        code: 'amount_differs',
        side: 'report',
        subject: 'report_line',
        reference: line.rrn,
        batchId: line.batchId,
        expectedAmount: payin.amount,
        actualAmount: line.gross,
        expectedDate: null,
        actualDate: null,
        suspense: owed - line.net,
        detail:
          line.gross !== payin.amount
            ? `gross ${line.gross} is not the pay-in's amount ${payin.amount}`
            : `MDR ${line.mdr} + net ${line.net} is not the gross ${line.gross}`,
      });
    if (line.settlementDate !== input.expectedSettlementDate)
      breaks.push({
        key: `date_differs:report:${line.rrn}`,
        code: 'date_differs',
        side: 'report',
        subject: 'report_line',
        reference: line.rrn,
        batchId: line.batchId,
        expectedAmount: null,
        actualAmount: null,
        expectedDate: input.expectedSettlementDate,
        actualDate: line.settlementDate,
        suspense: 0n,
        detail: `settled on ${line.settlementDate}, expected ${input.expectedSettlementDate}`,
      });
  }

  for (const p of input.payins)
    if (!seen.has(p.rrn))
      breaks.push({
        key: `missing_in_report:report:${p.rrn}`,
        code: 'missing_in_report',
        side: 'report',
        subject: 'payin',
        reference: p.rrn,
        batchId: null,
        expectedAmount: p.amount,
        actualAmount: null,
        expectedDate: input.expectedSettlementDate,
        actualDate: null,
        // Nothing moved: the acquirer still owes the gross, which stays in its receivable.
        suspense: 0n,
        detail: `pay-in ${p.payinId} (paid ${p.paidOn}) is not in the report`,
      });
  return { breaks, matched };
}
