import { parseReconDate } from './recon-date';

describe('parseReconDate', () => {
  const now = new Date('2026-11-22T18:00:00Z'); // 23 Nov 01:00 in Jakarta

  it('reads the date in Asia/Jakarta', () => {
    expect(parseReconDate('2026-11-22', now)).toEqual({
      ok: true,
      date: '2026-11-22',
      from: new Date('2026-11-21T17:00:00Z'),
      to: new Date('2026-11-22T17:00:00Z'),
    });
    expect(parseReconDate('2026-11-23', now).ok).toBe(true); // today in Jakarta
  });

  it.each([
    ['22-11-2026', 'must be a date in the format YYYY-MM-DD'],
    ['2026-11-22T00:00', 'must be a date in the format YYYY-MM-DD'],
    ['2026-02-30', '2026-02-30 is not a real date'],
    ['2026-13-01', '2026-13-01 is not a real date'],
    ['2026-11-24', '2026-11-24 is in the future (today is 2026-11-23 in Asia/Jakarta)'],
  ])('refuses %s', (text, problem) => {
    expect(parseReconDate(text, now)).toEqual({ ok: false, problem });
  });

  it('refuses a day before the merchant was created, read in Jakarta', () => {
    const created = new Date('2026-11-19T18:30:00Z'); // 20 Nov 01:30 in Jakarta
    expect(parseReconDate('2026-11-19', now, created)).toEqual({
      ok: false,
      problem: '2026-11-19 is before the merchant account was created (its first day is 2026-11-20 in Asia/Jakarta)',
    });
    expect(parseReconDate('2026-11-20', now, created).ok).toBe(true);
  });
});
