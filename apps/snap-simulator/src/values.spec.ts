import { amountOf, crc16, holderName, jakartaTime, money, qrisContent, scenarioOf } from './values';

/** Top-level EMVCo TLV fields of a payload, in order (id, value). */
function fields(payload: string): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < payload.length;) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    out.push([id, payload.slice(i + 4, i + 4 + len)]);
    i += 4 + len;
  }
  return out;
}

describe('the simulator values', () => {
  it('computes CRC-16/CCITT-FALSE: the catalogue check value and a published MPM payload', () => {
    // The standard check value of CRC-16/CCITT-FALSE over the ASCII digits 1..9.
    expect(crc16('123456789')).toBe('29B1');
    // A dynamic payload published as a decoding example by an open-source EMV QR library, CRC 1FF2.
    const published =
      '00020101021252044131153137210116372101160123456789ABCDE6016Banteay Meanchey5913Kuntheas Shop5802KH540510.005303840621201081234567863041FF2';
    expect(crc16(published.slice(0, -4))).toBe('1FF2');
  });

  it('builds a dynamic QRIS payload that starts 000201, carries the amount and ends with its own CRC', () => {
    const qr = qrisContent({
      merchantId: 'ID1020000000001',
      merchantName: 'WARUNG SIM',
      amount: 1_500_050n,
      reference: 'QR123',
    });
    expect(qr.startsWith('000201')).toBe(true);
    const f = fields(qr);
    expect(f.map(([id]) => id)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(Object.fromEntries(f)).toMatchObject({
      '01': '12',
      '53': '360',
      '54': '15000.50',
      '58': 'ID',
      '59': 'WARUNG SIM',
    });
    expect(fields(Object.fromEntries(f)['26'])).toEqual([
      ['00', 'ID.CO.QRIS.WWW'],
      ['01', 'ID1020000000001'],
      ['03', 'UMI'],
    ]);
    expect(qr.slice(-4)).toBe(crc16(qr.slice(0, -4)));
    // Whole rupiah amounts carry no decimals.
    expect(
      Object.fromEntries(
        fields(qrisContent({ merchantId: 'M', merchantName: 'N', amount: 2_000_000n, reference: 'R' })),
      )['54'],
    ).toBe('20000');
  });

  it('parses SNAP amounts to sen and refuses every other shape with 400xx01/400xx02', () => {
    expect(amountOf('amount', { value: '150000.05', currency: 'IDR' })).toBe(15_000_005n);
    expect(money(15_000_005n)).toEqual({ value: '150000.05', currency: 'IDR' });
    for (const bad of [
      { value: '150000', currency: 'IDR' },
      { value: '1.5', currency: 'IDR' },
      { value: '1.00', currency: 'USD' },
      { value: 100, currency: 'IDR' },
    ])
      expect(() => amountOf('amount', bad)).toThrow(expect.objectContaining({ http: 400, caseCode: '01' }));
    expect(() => amountOf('amount', undefined)).toThrow(expect.objectContaining({ http: 400, caseCode: '02' }));
  });

  it('names holders deterministically, maps the magic accounts and writes Jakarta time', () => {
    expect(holderName('014', '1234567890')).toBe(holderName('014', '1234567890'));
    expect(scenarioOf('0000000408')).toBe('executed_no_answer');
    expect(scenarioOf('0800000408')).toBe('executed_no_answer');
    expect(scenarioOf('0000000999')).toBe('normal');
    expect(scenarioOf('1000000408')).toBe('normal');
    expect(jakartaTime(new Date('2024-08-01T03:16:00Z'))).toBe('2024-08-01T10:16:00+07:00');
  });
});
