import { formatDateTime, formatRupiah, jakartaToday } from './format';

// Intl puts a no-break space between "Rp" and the number.
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('formatRupiah', () => {
  it('formats Rupiah the Indonesian way', () => {
    expect(plain(formatRupiah(1500000))).toBe('Rp 1.500.000');
    expect(plain(formatRupiah('2500'))).toBe('Rp 2.500');
    expect(plain(formatRupiah(0))).toBe('Rp 0');
    expect(plain(formatRupiah(70.5))).toBe('Rp 70,5');
  });

  it('shows a dash for a missing or non-numeric amount', () => {
    expect(formatRupiah(null)).toBe('–');
    expect(formatRupiah(undefined)).toBe('–');
    expect(formatRupiah('abc')).toBe('–');
  });
});

describe('dates in Asia/Jakarta', () => {
  it('shows an ISO instant in Jakarta time (UTC+7)', () => {
    expect(formatDateTime('2026-11-25T17:30:00.000Z')).toContain('00:30:00');
    expect(formatDateTime('2026-11-25T17:30:00.000Z')).toContain('26 Nov 2026');
    expect(formatDateTime('2026-11-25T17:30:00.000Z')).toMatch(/00:30:00 WIB$/);
    expect(formatDateTime('2026-11-25T17:30:00.000Z', 'id')).toMatch(/ WIB$/);
  });

  it("reads the merchant API's zone-less Jakarta times as Jakarta times", () => {
    expect(formatDateTime('2026-11-25 14:03:00')).toContain('14:03:00');
  });

  it("gives today's Jakarta date, which is tomorrow in UTC terms after 17:00 UTC", () => {
    expect(jakartaToday(new Date('2026-11-25T17:30:00Z'))).toBe('2026-11-26');
    expect(jakartaToday(new Date('2026-11-25T16:59:00Z'))).toBe('2026-11-25');
  });
});
