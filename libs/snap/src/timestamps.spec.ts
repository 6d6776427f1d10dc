import { fromSnapAmount, toSnapAmount } from './amount';
import { ExternalIds, parseSnapTimestamp, snapTimestamp } from './timestamps';

describe('X-TIMESTAMP', () => {
  it('is Jakarta time with +07:00 and no milliseconds', () => {
    expect(snapTimestamp(new Date('2024-08-01T03:15:30.999Z'))).toBe('2024-08-01T10:15:30+07:00');
    expect(snapTimestamp(new Date('2024-12-31T17:00:00Z'))).toBe('2025-01-01T00:00:00+07:00');
  });

  it('parses the forms providers send and refuses others', () => {
    expect(parseSnapTimestamp('2024-08-01T10:15:30+07:00')?.toISOString()).toBe('2024-08-01T03:15:30.000Z');
    expect(parseSnapTimestamp('2024-03-01T08:27:49.024Z')?.toISOString()).toBe('2024-03-01T08:27:49.024Z');
    expect(parseSnapTimestamp('2024-08-01 10:15:30')).toBeNull();
    expect(parseSnapTimestamp('2024-13-01T10:15:30+07:00')).toBeNull();
  });
});

describe('X-EXTERNAL-ID', () => {
  it('is numeric, of the configured length, starting with the Jakarta date and time', () => {
    const ids = new ExternalIds(32, () => new Date('2024-08-01T03:16:00Z'));
    const id = ids.next();
    expect(id).toMatch(/^\d{32}$/);
    expect(id.startsWith('20240801101600')).toBe(true);
    expect(new ExternalIds(19).next()).toMatch(/^\d{19}$/);
    expect(() => new ExternalIds(18)).toThrow(/between 19 and 36/);
  });

  it('does not repeat within a process (100,000 ids in one second)', () => {
    const ids = new ExternalIds(32, () => new Date('2024-08-01T03:16:00Z'));
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(ids.next());
    expect(seen.size).toBe(100_000);
  });
});

describe('SNAP amounts', () => {
  it('converts minor units both ways', () => {
    expect(toSnapAmount(15_000_000n)).toEqual({ value: '150000.00', currency: 'IDR' });
    expect(toSnapAmount(5n)).toEqual({ value: '0.05', currency: 'IDR' });
    expect(fromSnapAmount({ value: '150000.00', currency: 'IDR' })).toBe(15_000_000n);
    expect(fromSnapAmount({ value: '50000', currency: 'IDR' })).toBe(5_000_000n);
    expect(() => toSnapAmount(-1n)).toThrow(RangeError);
  });

  it.each([
    { value: '1.5', currency: 'IDR' },
    { value: '1.505', currency: 'IDR' },
    { value: '-1.00', currency: 'IDR' },
    { value: '12345678901234567.00', currency: 'IDR' },
    { value: 100, currency: 'IDR' },
    { value: '1.00', currency: 'USD' },
    null,
    '1.00',
  ])('refuses %p', (amount) => {
    expect(fromSnapAmount(amount)).toBeNull();
  });
});
