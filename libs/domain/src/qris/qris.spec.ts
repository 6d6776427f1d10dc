import fc from 'fast-check';
import { crc16CcittFalse } from './crc16';
import { decodeQris, encodeQris, fitField, hasValidCrc, QRIS_GUID, type QrisPayment } from './qris-payload';
import { decodeTlv } from './tlv';

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the standard check value', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  it('validates published QRIS payloads from Indonesian acquirers', () => {
    // A real static QRIS as printed by its issuer (Bank Nobu), with tag 51 under ID.CO.QRIS.WWW.
    const published =
      '00020101021126670016COM.NOBUBANK.WWW01189360050300000879140214703239147837910303UMI51440014ID.CO.QRIS.WWW0215ID20232709941630303UMI5204481253033605802ID5923GRANOOL STORE OK12295776006KEDIRI61056421262070703A0163047127';
    expect(hasValidCrc(published)).toBe(true);
    expect(hasValidCrc(published.replace('KEDIRI', 'KEDIRA'))).toBe(false);
    const tags = decodeTlv(published);
    expect(tags.map((t) => t.tag)).toEqual(['00', '01', '26', '51', '52', '53', '58', '59', '60', '61', '62', '63']);
    expect(decodeTlv(tags[3].value)).toEqual([
      { tag: '00', value: QRIS_GUID },
      { tag: '02', value: 'ID2023270994163' },
      { tag: '03', value: 'UMI' },
    ]);
  });
});

describe('QRIS payload', () => {
  const example: QrisPayment = {
    nmid: 'ID1020021181745',
    merchantCriteria: 'UMI',
    mcc: '5812',
    amount: 5_000_000n,
    merchantName: 'Toko Sinar Jaya',
    merchantCity: 'Jakarta Selatan',
    postalCode: '12190',
    reference: 'QR20261122ABCDEFGHJK',
  };

  it('has the EMVCo structure of a dynamic QRIS', () => {
    const payload = encodeQris(example);
    const tags = decodeTlv(payload);
    expect(tags.map((t) => t.tag)).toEqual(['00', '01', '51', '52', '53', '54', '58', '59', '60', '61', '62', '63']);
    const get = (tag: string) => tags.find((t) => t.tag === tag)?.value;
    expect(get('00')).toBe('01');
    expect(get('01')).toBe('12');
    expect(decodeTlv(get('51') ?? '')).toEqual([
      { tag: '00', value: QRIS_GUID },
      { tag: '02', value: 'ID1020021181745' },
      { tag: '03', value: 'UMI' },
    ]);
    expect(get('53')).toBe('360');
    expect(get('54')).toBe('50000');
    expect(get('58')).toBe('ID');
    expect(get('62')).toBe('0520QR20261122ABCDEFGHJK');
    expect(payload.startsWith('000201010212')).toBe(true);
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
    expect(hasValidCrc(payload)).toBe(true);
  });

  it('keeps names and cities within their limits', () => {
    const payload = encodeQris({
      ...example,
      merchantName: 'Warung Makan Sederhana Bu Tini Cabang Kemang',
      merchantCity: 'Kota Administrasi Jakarta Selatan',
    });
    const decoded = decodeQris(payload);
    expect(decoded.merchantName).toHaveLength(25);
    expect(decoded.merchantCity.length).toBeLessThanOrEqual(15);
    expect(fitField('Kafé  Ñusantara ', 25)).toBe('Kafe Nusantara');
  });

  it('refuses a tampered payload', () => {
    const payload = encodeQris(example);
    expect(() => decodeQris(payload.replace('5405', '5406'))).toThrow(/CRC/);
  });

  it('parse(generate(x)) = x for many inputs', () => {
    const printable = (max: number) =>
      fc.string({ minLength: 1, maxLength: max }).map((s) => s.replace(/[^\x21-\x7E]/g, 'x'));
    const payments = fc.record({
      nmid: fc.stringMatching(/^ID\d{10,13}$/),
      merchantCriteria: fc.constantFrom('UMI', 'UKE', 'UME', 'UBE', 'URE'),
      mcc: fc.stringMatching(/^\d{4}$/),
      amount: fc.bigInt({ min: 1n, max: 99_999_999_999n }),
      merchantName: printable(25),
      merchantCity: printable(15),
      postalCode: fc.option(fc.stringMatching(/^\d{5}$/), { nil: undefined }),
      reference: printable(25),
    });
    fc.assert(
      fc.property(payments, (p) => {
        const input: QrisPayment = { ...p, ...(p.postalCode === undefined ? { postalCode: undefined } : {}) };
        const decoded = decodeQris(encodeQris(input));
        const expected = { ...input };
        if (expected.postalCode === undefined) delete expected.postalCode;
        return (
          JSON.stringify({ ...decoded, amount: String(decoded.amount) }) ===
          JSON.stringify({ ...expected, amount: String(expected.amount) })
        );
      }),
      { numRuns: 2000 },
    );
  });
});
