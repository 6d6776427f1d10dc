import { addDays, type DayInput, reconcileDay } from './reconcile-day';
import { batchesOf, isFeeLine } from './match-statement';
import type { LedgerPayin, LedgerRefund, RefundLine, ReportLine, StatementLine } from './recon-types';

const D = '2026-12-03';
const S = '2026-12-04';
const MDR = (gross: bigint) => (gross * 7n) / 1000n;

const payin = (n: number, amount = 100_000_00n): LedgerPayin => ({
  payinId: `p${n}`,
  rrn: `RRN${n}`,
  amount,
  paidOn: D,
});
const line = (n: number, over: Partial<ReportLine> = {}): ReportLine => {
  const gross = over.gross ?? 100_000_00n;
  const mdr = over.mdr ?? MDR(gross);
  return {
    lineNo: n,
    rrn: `RRN${n}`,
    referenceNo: `QR${n}`,
    batchId: 'B1',
    gross,
    mdr,
    net: gross - mdr,
    transactionDate: D,
    settlementDate: S,
    ...over,
  };
};
const credit = (lineNo: number, transactionId: string, amount: bigint): StatementLine => ({
  lineNo,
  transactionId,
  type: 'CREDIT',
  amount,
  date: S,
  remark: `QRIS SETTLEMENT ${transactionId}`,
});
const debit = (lineNo: number, transactionId: string, amount: bigint, remark = 'TRF 1234567890'): StatementLine => ({
  lineNo,
  transactionId,
  type: 'DEBIT',
  amount,
  date: S,
  remark,
});

/** Three pay-ins, reported in one batch and credited in full; a payout debited and confirmed; a fee booked. */
function cleanDay(): DayInput & { report: ReportLine[]; statement: StatementLine[] } {
  const payins = [payin(1), payin(2, 250_000_00n), payin(3, 12_345_67n)];
  const report = payins.map((p, i) => line(i + 1, { rrn: p.rrn, gross: p.amount }));
  const net = report.reduce((s, l) => s + l.net, 0n);
  return {
    date: D,
    settlementLagDays: 1,
    payins,
    report,
    statement: [credit(1, 'B1', net), debit(2, 'PO-1', 50_000_00n), debit(3, 'FEE-PO-1', 2_500_00n, 'FEE TRF PO-1')],
    settlementLines: report,
    settlementPayins: payins,
    payouts: [{ reference: 'PO-1', amount: 50_000_00n, confirmedOn: D }],
    railFees: [{ feeRef: 'FEE-PO-1', amount: 2_500_00n }],
  };
}

/** The report's half and the statement's, as one day would see them when the batch settles the same day. */
function sameDay(d: ReturnType<typeof cleanDay>) {
  const report = d.report.map((l) => ({ ...l, settlementDate: D }));
  return { ...d, settlementLagDays: 0, report, settlementLines: report };
}

/** The day with another report, its batch credited `credited` (by default what the report says). */
function reported(day: ReturnType<typeof cleanDay>, report: ReportLine[], credited?: bigint): DayInput {
  const net = credited ?? report.reduce((s, l) => s + l.net, 0n);
  return { ...day, report, settlementLines: report, statement: [credit(1, 'B1', net), ...day.statement.slice(1)] };
}

const codes = (r: ReturnType<typeof reconcileDay>) => r.breaks.map((b) => `${b.code}:${b.subject}:${b.reference}`);

describe('reconcileDay', () => {
  it('a clean day: no break, one booking of the batch at the ledgers gross, nothing in suspense', () => {
    const day = cleanDay();
    const r = reconcileDay(day);
    expect(r.breaks).toEqual([]);
    const gross = 100_000_00n + 250_000_00n + 12_345_67n;
    const mdr = day.report.reduce((s, l) => s + l.mdr, 0n);
    expect(r.bookings).toEqual([
      {
        batchId: 'B1',
        settlementDate: S,
        gross,
        mdr,
        refunds: 0n,
        net: gross - mdr,
        credited: gross - mdr,
        difference: 0n,
        payinIds: ['p1', 'p2', 'p3'],
        refundIds: [],
      },
    ]);
    expect(r.feesToBook).toEqual([]);
    expect(r.summary).toMatchObject({
      ledgerPayins: { count: 3, amount: gross },
      reportLines: { count: 3, amount: gross, mdr, net: gross - mdr },
      matchedPayins: { count: 3, amount: gross },
      statementCredits: { count: 1, amount: gross - mdr },
      statementDebits: { count: 2, amount: 52_500_00n },
      ledgerPayouts: { count: 1, amount: 50_000_00n },
      breaks: 0,
      suspense: 0n,
    });
  });

  it('an RRN left out of the report (and out of the batch): missing_in_report only, the rest booked', () => {
    const day = cleanDay();
    const report = day.report.filter((l) => l.rrn !== 'RRN2');
    const r = reconcileDay(reported(day, report));
    expect(codes(r)).toEqual(['missing_in_report:payin:RRN2']);
    expect(r.breaks[0]).toMatchObject({
      side: 'report',
      expectedAmount: 250_000_00n,
      actualAmount: null,
      suspense: 0n,
    });
    expect(r.bookings[0]).toMatchObject({ gross: 100_000_00n + 12_345_67n, difference: 0n, payinIds: ['p1', 'p3'] });
  });

  it('a short settlement: amount_differs on the batch, the shortfall into suspense', () => {
    const day = cleanDay();
    const due = day.report.reduce((s, l) => s + l.net, 0n);
    const r = reconcileDay({ ...day, statement: [credit(1, 'B1', due - 1_000_00n), ...day.statement.slice(1)] });
    expect(codes(r)).toEqual(['amount_differs:batch:B1']);
    expect(r.breaks[0]).toMatchObject({
      side: 'statement',
      expectedAmount: due,
      actualAmount: due - 1_000_00n,
      suspense: 1_000_00n,
    });
    expect(r.bookings[0]).toMatchObject({ net: due, credited: due - 1_000_00n, difference: -1_000_00n });
    expect(r.summary.suspense).toBe(1_000_00n);
  });

  it('a duplicate line (paid twice): duplicate only; the second net into suspense', () => {
    const day = cleanDay();
    const dup = { ...day.report[0], lineNo: 4 };
    const report = [...day.report, dup];
    const r = reconcileDay(reported(day, report));
    expect(codes(r)).toEqual(['duplicate:report_line:RRN1']);
    expect(r.breaks[0].suspense).toBe(-dup.net);
    expect(r.bookings[0]).toMatchObject({ difference: dup.net, payinIds: ['p1', 'p2', 'p3'] });
    expect(r.summary.suspense).toBe(-dup.net);
  });

  it('a line whose settlement date moved: date_differs only, money booked as usual', () => {
    const day = cleanDay();
    const report = day.report.map((l) => (l.rrn === 'RRN3' ? { ...l, settlementDate: addDays(S, 1) } : l));
    const r = reconcileDay({ ...day, report, settlementLines: report });
    expect(codes(r)).toEqual(['date_differs:report_line:RRN3']);
    expect(r.breaks[0]).toMatchObject({ expectedDate: S, actualDate: '2026-12-05', suspense: 0n });
    expect(r.bookings[0].difference).toBe(0n);
  });

  it('a line of an RRN the ledger does not have, paid: missing_in_ledger, its net into suspense', () => {
    const day = cleanDay();
    const stranger = line(4, { rrn: 'RRN-X', gross: 7_000_00n });
    const report = [...day.report, stranger];
    const r = reconcileDay(reported(day, report));
    expect(codes(r)).toEqual(['missing_in_ledger:report_line:RRN-X']);
    expect(r.bookings[0].difference).toBe(stranger.net);
    expect(r.summary.suspense).toBe(-stranger.net);
  });

  it('a gross that is not the pay-ins amount: amount_differs on the line, the difference into suspense', () => {
    const day = cleanDay();
    const report = day.report.map((l) =>
      l.rrn === 'RRN1' ? { ...l, gross: l.gross - 500_00n, net: l.net - 500_00n } : l,
    );
    const r = reconcileDay(reported(day, report));
    expect(codes(r)).toEqual(['amount_differs:report_line:RRN1']);
    expect(r.breaks[0]).toMatchObject({ expectedAmount: 100_000_00n, actualAmount: 99_500_00n, suspense: 500_00n });
    expect(r.bookings[0]).toMatchObject({ gross: 100_000_00n + 250_000_00n + 12_345_67n, difference: -500_00n });
  });

  it('a line whose MDR and net do not make its gross: amount_differs', () => {
    const day = cleanDay();
    const report = day.report.map((l) => (l.rrn === 'RRN2' ? { ...l, net: l.net - 1n } : l));
    const r = reconcileDay({ ...day, report, settlementLines: report });
    expect(codes(r)).toEqual(['amount_differs:report_line:RRN2', 'amount_differs:batch:B1']);
  });

  it('the batch not credited on its settlement day: missing_in_statement, nothing booked', () => {
    const day = sameDay(cleanDay());
    const r = reconcileDay({ ...day, statement: day.statement.slice(1) });
    expect(codes(r)).toEqual(['missing_in_statement:batch:B1']);
    expect(r.bookings).toEqual([]);
  });

  it('a batch not due yet and not credited: no break (it is another days)', () => {
    const day = cleanDay();
    expect(reconcileDay({ ...day, statement: day.statement.slice(1) }).breaks).toEqual([]);
  });

  it('a batch credited twice: duplicate on the statement', () => {
    const day = cleanDay();
    const r = reconcileDay({ ...day, statement: [...day.statement, { ...day.statement[0], lineNo: 9 }] });
    expect(codes(r)).toEqual(['duplicate:batch:B1']);
  });

  it('a credit of no batch: unexpected; a debit returned the same day is a failed transfer, no break', () => {
    const day = cleanDay();
    const r = reconcileDay({
      ...day,
      statement: [
        ...day.statement,
        credit(4, 'SOMETHING', 1_00n),
        debit(5, 'PO-FAILED', 10_000_00n),
        { ...credit(6, 'PO-FAILED', 10_000_00n), remark: 'REVERSAL' },
      ],
    });
    expect(codes(r)).toEqual(['unexpected:statement_line:SOMETHING']);
  });

  it('payouts: a debit of no confirmed payout, a confirmed payout not debited, another amount, a second debit', () => {
    const day = cleanDay();
    const r = reconcileDay({
      ...day,
      statement: [
        day.statement[0],
        debit(2, 'PO-1', 49_000_00n),
        debit(3, 'PO-STRAY', 1_00n),
        debit(4, 'PO-1', 49_000_00n),
        day.statement[2],
      ],
      payouts: [...day.payouts, { reference: 'PO-2', amount: 7_00n, confirmedOn: D }],
    });
    expect(codes(r).sort()).toEqual([
      'amount_differs:payout:PO-1',
      'duplicate:payout:PO-1',
      'missing_in_ledger:payout:PO-STRAY',
      'missing_in_statement:payout:PO-2',
    ]);
  });

  it('fees: a fee line not booked yet is to book (no break); another amount or a booked fee not charged is a break', () => {
    const day = cleanDay();
    const toBook = reconcileDay({ ...day, railFees: [] });
    expect(toBook.breaks).toEqual([]);
    expect(toBook.feesToBook.map((l) => l.transactionId)).toEqual(['FEE-PO-1']);
    const differs = reconcileDay({ ...day, railFees: [{ feeRef: 'FEE-PO-1', amount: 1n }] });
    expect(codes(differs)).toEqual(['amount_differs:fee:FEE-PO-1']);
    const missing = reconcileDay({ ...day, railFees: [...day.railFees, { feeRef: 'FEE-PO-9', amount: 1n }] });
    expect(codes(missing)).toEqual(['missing_in_statement:fee:FEE-PO-9']);
  });

  it('breaks combined: each named once, with stable keys; the suspense is the sum of the batchs differences', () => {
    const day = cleanDay();
    const report = [
      day.report[0],
      { ...day.report[2], settlementDate: addDays(S, 2) },
      { ...day.report[0], lineNo: 5 },
      line(6, { rrn: 'RRN-X', gross: 3_000_00n }),
    ];
    const due = report.reduce((s, l) => s + l.net, 0n);
    const input = {
      ...day,
      report,
      settlementLines: report,
      statement: [credit(1, 'B1', due - 10_00n), debit(2, 'PO-1', 50_000_00n), credit(3, 'ODD', 5n)],
    };
    const r = reconcileDay(input);
    expect(codes(r).sort()).toEqual([
      'amount_differs:batch:B1',
      'date_differs:report_line:RRN3',
      'duplicate:report_line:RRN1',
      'missing_in_ledger:report_line:RRN-X',
      'missing_in_report:payin:RRN2',
      'missing_in_statement:fee:FEE-PO-1',
      'unexpected:statement_line:ODD',
    ]);
    const inBatch = r.breaks.filter((b) => b.batchId === 'B1').reduce((s, b) => s + b.suspense, 0n);
    expect(inBatch).toBe(r.summary.suspense);
    expect(new Set(r.breaks.map((b) => b.key)).size).toBe(r.breaks.length);
    expect(reconcileDay(input).breaks.map((b) => b.key)).toEqual(r.breaks.map((b) => b.key));
  });

  it('without a report or a statement, that half is not reconciled', () => {
    const day = cleanDay();
    expect(reconcileDay({ ...day, report: null }).breaks).toEqual([]);
    const r = reconcileDay({ ...day, statement: null, report: day.report.slice(1) });
    expect(codes(r)).toEqual(['missing_in_report:payin:RRN1']);
    expect(r.bookings).toEqual([]);
  });
});

describe('batchesOf / isFeeLine', () => {
  it('a batch settles on the day most of its lines say; its net is every lines net, as reported', () => {
    const lines = [line(1), line(2, { settlementDate: '2026-12-09' }), line(3), { ...line(1), lineNo: 4 }];
    expect(batchesOf(lines)).toEqual([
      { batchId: 'B1', settlementDate: S, net: lines.reduce((s, l) => s + l.net, 0n), refunds: 0n },
    ]);
  });

  it('a fee line is a debit whose id starts FEE- or whose remark starts FEE', () => {
    expect(isFeeLine(debit(1, 'FEE-1', 1n))).toBe(true);
    expect(isFeeLine(debit(1, 'X1', 1n, 'FEE interbank'))).toBe(true);
    expect(isFeeLine(debit(1, 'FEED1', 1n, 'TRF'))).toBe(false);
    expect(isFeeLine({ ...credit(1, 'FEE-1', 1n) })).toBe(false);
  });
});

describe('reconcileDay: refunds the acquirer netted', () => {
  const R1 = '0b6f3c2e-1d4a-4f5b-8c6d-7e8f9a0b1c2d';
  const R2 = '1c7a4d3f-2e5b-4a6c-9d7e-8f9a0b1c2d3e';
  /** Our refunds made on D: 20,000 of pay-in 1 and 5,000 of pay-in 2. */
  const refunds: LedgerRefund[] = [
    { refundId: R1, payinId: 'p1', rrn: 'RRN1', amount: 20_000_00n, refundedOn: D },
    { refundId: R2, payinId: 'p2', rrn: 'RRN2', amount: 5_000_00n, refundedOn: D },
  ];
  const refundLine = (n: number, r: LedgerRefund, over: Partial<RefundLine> = {}): RefundLine => ({
    lineNo: n,
    rrn: r.rrn,
    refundNo: `RFD${n}`,
    partnerRefundNo: r.refundId,
    batchId: 'B1',
    amount: r.amount,
    refundDate: r.refundedOn,
    ...over,
  });
  /** The clean day with these refund lines in its report and batch B1, credited what the report says (or `credited`). */
  function withRefunds(lines: RefundLine[], credited?: bigint): DayInput {
    const day = cleanDay();
    const net = day.report.reduce((s, l) => s + l.net, 0n) - lines.reduce((s, l) => s + l.amount, 0n);
    return {
      ...day,
      reportRefunds: lines,
      settlementRefunds: lines,
      refunds,
      statement: [credit(1, 'B1', credited ?? net), ...day.statement.slice(1)],
    };
  }
  const gross = 100_000_00n + 250_000_00n + 12_345_67n;
  const mdr = MDR(100_000_00n) + MDR(250_000_00n) + MDR(12_345_67n);

  it('refunds netted as we made them: no break; the booking nets them at our amounts, nothing in suspense', () => {
    const r = reconcileDay(withRefunds([refundLine(1, refunds[0]), refundLine(2, refunds[1])]));
    expect(codes(r)).toEqual([]);
    expect(r.bookings).toEqual([
      expect.objectContaining({
        gross,
        mdr,
        refunds: 25_000_00n,
        net: gross - mdr - 25_000_00n,
        credited: gross - mdr - 25_000_00n,
        difference: 0n,
        refundIds: [R1, R2],
      }),
    ]);
    expect(r.summary).toMatchObject({
      ledgerRefunds: { count: 2, amount: 25_000_00n },
      reportRefunds: { count: 2, amount: 25_000_00n },
      matchedRefunds: { count: 2, amount: 25_000_00n },
      suspense: 0n,
    });
  });

  it('a line without our id matches by the pay-in RRN and the amount', () => {
    const r = reconcileDay(
      withRefunds([refundLine(1, refunds[0], { partnerRefundNo: null }), refundLine(2, refunds[1])]),
    );
    expect(codes(r)).toEqual([]);
    expect(r.bookings[0].refundIds).toEqual([R2, R1]);
  });

  it('a refund line nobody asked for: missing_in_ledger, its amount owed to us in suspense, nothing else', () => {
    const unknown = refundLine(3, { ...refunds[0], refundId: 'UNKNOWN-1', amount: 1_000_00n });
    const r = reconcileDay(withRefunds([refundLine(1, refunds[0]), refundLine(2, refunds[1]), unknown]));
    expect(codes(r)).toEqual(['missing_in_ledger:refund_line:UNKNOWN-1']);
    expect(r.breaks[0]).toMatchObject({ side: 'report', batchId: 'B1', actualAmount: 1_000_00n, suspense: 1_000_00n });
    expect(r.bookings[0]).toMatchObject({ refunds: 25_000_00n, difference: -1_000_00n });
    expect(r.summary.suspense).toBe(1_000_00n);
  });

  it('a line without our id and of no refund of that pay-in and amount: missing_in_ledger', () => {
    const r = reconcileDay(
      withRefunds([refundLine(1, refunds[0], { partnerRefundNo: null, amount: 7_00n }), refundLine(2, refunds[1])]),
    );
    expect(codes(r)).toEqual(['missing_in_ledger:refund_line:RFD1', 'missing_in_report:refund:' + R1]);
  });

  it('a refund netted for another amount: amount_differs, the difference in suspense', () => {
    const r = reconcileDay(withRefunds([refundLine(1, refunds[0], { amount: 21_000_00n }), refundLine(2, refunds[1])]));
    expect(codes(r)).toEqual([`amount_differs:refund_line:${R1}`]);
    expect(r.breaks[0]).toMatchObject({ expectedAmount: 20_000_00n, actualAmount: 21_000_00n, suspense: 1_000_00n });
    expect(r.bookings[0]).toMatchObject({ refunds: 25_000_00n, difference: -1_000_00n });
  });

  it('a refund netted twice: duplicate, the second owed back to us', () => {
    const r = reconcileDay(
      withRefunds([refundLine(1, refunds[0]), refundLine(2, refunds[1]), refundLine(3, refunds[1])]),
    );
    expect(codes(r)).toEqual([`duplicate:refund_line:${R2}`]);
    expect(r.breaks[0].suspense).toBe(5_000_00n);
    expect(r.bookings[0]).toMatchObject({ refunds: 25_000_00n, difference: -5_000_00n });
  });

  it('a refund of the day the report does not net: missing_in_report, nothing moves; not when another report nets it', () => {
    const r = reconcileDay(withRefunds([refundLine(1, refunds[0])]));
    expect(codes(r)).toEqual([`missing_in_report:refund:${R2}`]);
    expect(r.breaks[0]).toMatchObject({ expectedAmount: 5_000_00n, suspense: 0n });
    expect(r.bookings[0]).toMatchObject({ refunds: 20_000_00n, difference: 0n });
    const elsewhere = reconcileDay({
      ...withRefunds([refundLine(1, refunds[0])]),
      refundsReportedElsewhere: new Set([R2]),
    });
    expect(codes(elsewhere)).toEqual([]);
  });

  it('a batch whose net is less its refunds: credited the payments net alone is settled over by the refunds', () => {
    const lines = [refundLine(1, refunds[0]), refundLine(2, refunds[1])];
    const r = reconcileDay(withRefunds(lines, gross - mdr));
    expect(codes(r)).toEqual(['amount_differs:batch:B1']);
    expect(r.breaks[0]).toMatchObject({ expectedAmount: gross - mdr - 25_000_00n, suspense: -25_000_00n });
  });
});
