import {
  parseReportCsv,
  parseSnapReport,
  parseSnapStatement,
  parseStatementCsv,
  SourceFormatError,
} from './parse-sources';

describe('parsing reports and statements', () => {
  it('reads the report CSV (Rupiah to sen, quoted fields, CRLF)', () => {
    const csv =
      'rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net\r\n' +
      '123456789012,QR1,2026-12-03,2026-12-04,"B,1",150000.00,1050.00,148950.00\r\n' +
      '123456789013,,2026-12-03,2026-12-04,B2,12345.6,86.42,12259.18\r\n';
    expect(parseReportCsv(csv).refunds).toEqual([]);
    expect(parseReportCsv(csv).lines).toEqual([
      {
        lineNo: 1,
        rrn: '123456789012',
        referenceNo: 'QR1',
        batchId: 'B,1',
        gross: 15_000_000n,
        mdr: 105_000n,
        net: 14_895_000n,
        transactionDate: '2026-12-03',
        settlementDate: '2026-12-04',
      },
      expect.objectContaining({ lineNo: 2, referenceNo: null, gross: 1_234_560n, net: 1_225_918n }),
    ]);
  });

  it('reads the record column: payment lines and refund lines (numbered apart), every bad line named', () => {
    const csv =
      'record,rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net,refund_no,partner_refund_no,refund_date,refund_amount\n' +
      'payment,123456789012,QR1,2026-12-03,2026-12-04,B1,150000.00,1050.00,148950.00,,,,\n' +
      'refund,123456789012,QR1,,2026-12-04,B1,,,,RFD1,0b6f3c2e-1d4a-4f5b-8c6d-7e8f9a0b1c2d,2026-12-03,25000.00\n' +
      ',123456789013,QR2,2026-12-03,2026-12-04,B1,10.00,0.07,9.93,,,,\n';
    const report = parseReportCsv(csv);
    expect(report.lines.map((l) => [l.lineNo, l.rrn, l.net])).toEqual([
      [1, '123456789012', 14_895_000n],
      [2, '123456789013', 993n],
    ]);
    expect(report.refunds).toEqual([
      {
        lineNo: 1,
        rrn: '123456789012',
        refundNo: 'RFD1',
        partnerRefundNo: '0b6f3c2e-1d4a-4f5b-8c6d-7e8f9a0b1c2d',
        batchId: 'B1',
        amount: 2_500_000n,
        refundDate: '2026-12-03',
      },
    ]);
    expect(() =>
      parseReportCsv('record,rrn,batch_id,refund_amount\nrefund,R1,B1,0\nreversal,R2,B1,1.00\npayment,R3,B1,\n'),
    ).toThrow(
      'line 2: refund_amount; line 3: record (payment or refund); line 4: a payment line, and the header lacks',
    );
  });

  it('reads the refunds of the SNAP report (refundData; absent: none)', () => {
    const detail = { rrn: 'R1', batchId: 'B1', settlementDate: '2026-12-04', grossAmount: { value: '10.00' } };
    const body = {
      detailData: [{ ...detail, mdrAmount: { value: '0.07' }, netAmount: { value: '9.93' } }],
      refundData: [
        {
          rrn: 'R1',
          batchId: 'B1',
          refundNo: 'RFD1',
          partnerRefundNo: 'X',
          refundAmount: { value: '1.00' },
          refundDate: '2026-12-03',
        },
      ],
    };
    expect(parseSnapReport(body).refunds).toEqual([
      {
        lineNo: 1,
        rrn: 'R1',
        refundNo: 'RFD1',
        partnerRefundNo: 'X',
        batchId: 'B1',
        amount: 100n,
        refundDate: '2026-12-03',
      },
    ]);
    expect(parseSnapReport({ detailData: body.detailData }).refunds).toEqual([]);
    expect(() => parseSnapReport({ ...body, refundData: [{ rrn: 'R1' }] })).toThrow(
      'refund 1: batch_id, refund_amount',
    );
  });

  it('refuses a report naming every bad line, and a header without a column', () => {
    const csv =
      'rrn,settlement_date,batch_id,gross,mdr,net\n,2026-12-04,B1,abc,1.00,2.00\nR2,04/12/2026,B1,1.00,0,1.00\n';
    expect(() => parseReportCsv(csv)).toThrow(SourceFormatError);
    expect(() => parseReportCsv(csv)).toThrow('line 2: rrn, gross; line 3: settlement_date');
    expect(() => parseReportCsv('rrn,gross\n')).toThrow('the header lacks settlement_date, batch_id, mdr, net');
  });

  it('reads a statement CSV and keeps the lines of the Jakarta day', () => {
    const csv =
      'transaction_date,transaction_id,type,amount,remark\n' +
      '2026-12-03T23:59:59+07:00,STL1,CREDIT,148950.00,QRIS SETTLEMENT STL1\n' +
      '2026-12-03T17:00:00Z,PO-1,DEBIT,10000.00,TRF\n';
    expect(parseStatementCsv(csv, '2026-12-03')).toEqual([
      {
        lineNo: 1,
        transactionId: 'STL1',
        type: 'CREDIT',
        amount: 14_895_000n,
        date: '2026-12-03',
        remark: 'QRIS SETTLEMENT STL1',
      },
    ]);
    expect(parseStatementCsv(csv, '2026-12-04').map((l) => l.transactionId)).toEqual(['PO-1']);
  });

  it('reads SNAP 14 (newest first) oldest first', () => {
    const body = {
      detailData: [
        {
          amount: { value: '2.00', currency: 'IDR' },
          transactionDate: '2026-12-03T10:00:01+07:00',
          transactionId: 'B',
          type: 'DEBIT',
          remark: 'TRF',
        },
        {
          amount: { value: '1.00', currency: 'IDR' },
          transactionDate: '2026-12-03T10:00:00+07:00',
          transactionId: 'A',
          type: 'CREDIT',
          remark: 'X',
        },
      ],
    };
    expect(parseSnapStatement(body, '2026-12-03').map((l) => [l.lineNo, l.transactionId, l.amount])).toEqual([
      [1, 'A', 100n],
      [2, 'B', 200n],
    ]);
  });
});
