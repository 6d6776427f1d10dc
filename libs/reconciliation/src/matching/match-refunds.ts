import type { Break, LedgerRefund, RefundLine } from './recon-types';

/** How the report's refund lines pair with the ledger's refunds, one to one. */
export interface RefundPairing {
  matched: { line: RefundLine; refund: LedgerRefund }[];
  /** A line repeating a refund an earlier line named (netted twice) */
  duplicates: { line: RefundLine; first: RefundLine }[];
  /** A line naming no refund of ours */
  unknown: RefundLine[];
}

/** What a refund line is called: our refund id when it gives it, else the acquirer's refund number, else RRN and line. */
export const refundLineRef = (l: RefundLine): string => l.partnerRefundNo ?? l.refundNo ?? `${l.rrn}:${l.lineNo}`;

/**
 * Pairs refund lines with the ledger's refunds: by partnerRefundNo (our refund's id) when the line
 * gives it, else by the pay-in's RRN and the amount among the refunds no line took yet. A refund
 * is taken by one line: a second line of one partnerRefundNo is a duplicate.
 */
export function pairRefunds(lines: readonly RefundLine[], refunds: readonly LedgerRefund[]): RefundPairing {
  const byId = new Map(refunds.map((r) => [r.refundId, r]));
  const taken = new Map<string, RefundLine>();
  const out: RefundPairing = { matched: [], duplicates: [], unknown: [] };
  const ordered = [...lines].sort((a, b) => a.lineNo - b.lineNo);
  for (const line of ordered.filter((l) => l.partnerRefundNo !== null)) {
    const id = line.partnerRefundNo as string;
    const first = taken.get(id);
    if (first) out.duplicates.push({ line, first });
    else if (!byId.has(id)) out.unknown.push(line);
    else {
      taken.set(id, line);
      out.matched.push({ line, refund: byId.get(id) as LedgerRefund });
    }
  }
  for (const line of ordered.filter((l) => l.partnerRefundNo === null)) {
    const refund = refunds.find((r) => !taken.has(r.refundId) && r.rrn === line.rrn && r.amount === line.amount);
    if (!refund) out.unknown.push(line);
    else {
      taken.set(refund.refundId, line);
      out.matched.push({ line, refund });
    }
  }
  return out;
}

const refundLineBreak = (
  line: RefundLine,
  b: Pick<Break, 'key' | 'code' | 'expectedAmount' | 'suspense' | 'detail'>,
): Break => ({
  side: 'report',
  subject: 'refund_line',
  reference: refundLineRef(line),
  batchId: line.batchId,
  actualAmount: line.amount,
  expectedDate: null,
  actualDate: line.refundDate,
  ...b,
});

/**
 * The report's refund lines against the ledger's refunds made at the acquirer: a line naming no
 * refund of ours (`missing_in_ledger`: the acquirer took it from what it owes us), a refund netted
 * twice (`duplicate`), a line of another amount than our refund (`amount_differs`), a refund the
 * acquirer made on `date` that no stored report nets (`missing_in_report`: it stays credited to
 * the receivable until a batch nets it). Suspense: what the acquirer withheld and does not owe
 * us back (positive: it owes us).
 */
export function matchRefunds(input: {
  date: string;
  lines: readonly RefundLine[];
  /** The ledger's refunds made on `date`, and those the lines name (by id or the pay-in's RRN) */
  refunds: readonly LedgerRefund[];
  /** Our refund ids that a stored report of another day nets */
  reportedElsewhere?: ReadonlySet<string>;
}): { breaks: Break[]; matched: RefundPairing['matched'] } {
  const pairing = pairRefunds(input.lines, input.refunds);
  const breaks: Break[] = [];
  for (const line of pairing.unknown)
    breaks.push(
      refundLineBreak(line, {
        key: `missing_in_ledger:report:refund:${refundLineRef(line)}`,
        code: 'missing_in_ledger',
        expectedAmount: null,
        suspense: line.amount,
        detail: `refund line ${line.lineNo} (RRN ${line.rrn}): no refund of ours ${line.partnerRefundNo ? `has id ${line.partnerRefundNo}` : 'of that pay-in and amount'}`,
      }),
    );
  for (const { line, first } of pairing.duplicates)
    breaks.push(
      refundLineBreak(line, {
        key: `duplicate:report:refund:${refundLineRef(line)}:${line.lineNo}`,
        code: 'duplicate',
        expectedAmount: null,
        suspense: line.amount,
        detail: `refund line ${line.lineNo} nets refund ${refundLineRef(line)} of line ${first.lineNo} again`,
      }),
    );
  for (const { line, refund } of pairing.matched)
    if (line.amount !== refund.amount)
      breaks.push(
        refundLineBreak(line, {
          key: `amount_differs:report:refund:${refund.refundId}`,
          code: 'amount_differs',
          expectedAmount: refund.amount,
          suspense: line.amount - refund.amount,
          detail: `refund ${refund.refundId} netted ${line.amount}, we refunded ${refund.amount}`,
        }),
      );
  const reported = new Set(pairing.matched.map((m) => m.refund.refundId));
  for (const r of input.refunds)
    if (r.refundedOn === input.date && !reported.has(r.refundId) && !input.reportedElsewhere?.has(r.refundId))
      breaks.push({
        key: `missing_in_report:report:refund:${r.refundId}`,
        code: 'missing_in_report',
        side: 'report',
        subject: 'refund',
        reference: r.refundId,
        batchId: null,
        expectedAmount: r.amount,
        actualAmount: null,
        expectedDate: r.refundedOn,
        actualDate: null,
        // Nothing moved: the refund stays credited to the receivable until a batch nets it.
        suspense: 0n,
        detail: `refund ${r.refundId} of pay-in ${r.payinId} (RRN ${r.rrn}, refunded ${r.refundedOn}) is not in the report`,
      });
  return { breaks, matched: pairing.matched };
}
