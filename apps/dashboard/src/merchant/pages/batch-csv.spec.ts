import { parseBatchCsv } from './batch-csv';

describe('parseBatchCsv', () => {
  it('reads the columns by the header, in any order and case, with quoted fields, a BOM and CRLF', () => {
    const csv =
      '\uFEFFAmount,merchantTrxId,bankCode,accountNo,accountName\r\n' +
      '"1,250,000.50",PAY-1,BCA,1234567890,"SANTOSO, BUDI"\r\n' +
      '100000,PAY-2,bni,5550001111,\r\n\r\n';
    expect(parseBatchCsv(csv, 1000)).toEqual({
      kind: 'rows',
      rows: [
        {
          merchantTrxId: 'PAY-1',
          bankCode: 'BCA',
          accountNo: '1234567890',
          accountName: 'SANTOSO, BUDI',
          amount: 1250000.5,
        },
        { merchantTrxId: 'PAY-2', bankCode: 'bni', accountNo: '5550001111', amount: 100000 },
      ],
    });
  });

  it('semicolons (Excel in some locales); an amount that is not a number goes as written, for the server to refuse', () => {
    const parsed = parseBatchCsv('merchantTrxId;bankCode;accountNo;amount\nA;BCA;123456;abc\n', 10);
    expect(parsed).toEqual({
      kind: 'rows',
      rows: [{ merchantTrxId: 'A', bankCode: 'BCA', accountNo: '123456', amount: 'abc' }],
    });
  });

  it('says what is wrong with the file as a whole', () => {
    expect(parseBatchCsv('', 10)).toEqual({ kind: 'error', error: 'empty' });
    expect(parseBatchCsv('merchantTrxId,bankCode,accountNo,amount\n', 10)).toEqual({ kind: 'error', error: 'empty' });
    expect(parseBatchCsv('merchantTrxId,amount\nA,1\n', 10)).toEqual({
      kind: 'error',
      error: 'missingColumns',
      detail: 'bankCode, accountNo',
    });
    expect(parseBatchCsv('merchantTrxId,bankCode,accountNo,amount\nA,B,C,1\nD,E,F,2\n', 1)).toEqual({
      kind: 'error',
      error: 'tooManyRows',
      detail: '2',
    });
    expect(parseBatchCsv('merchantTrxId,bankCode,accountNo,amount\n"A,B,C,1\n', 10)).toMatchObject({
      kind: 'error',
      error: 'badQuotes',
    });
  });
});
