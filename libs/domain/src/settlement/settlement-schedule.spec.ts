import { dueSettlementCutoff, settlementDueAt, settlementId } from './settlement-schedule';

const wib = (iso: string) => new Date(`${iso}+07:00`);

describe('dueSettlementCutoff', () => {
  it('T+1 at 10:00 WIB', () => {
    expect(dueSettlementCutoff(wib('2026-11-23T10:00:00'), 1, 10)).toEqual(wib('2026-11-23T00:00:00'));
    expect(dueSettlementCutoff(wib('2026-11-23T23:59:59'), 1, 10)).toEqual(wib('2026-11-23T00:00:00'));
    expect(dueSettlementCutoff(wib('2026-11-23T09:59:59'), 1, 10)).toEqual(wib('2026-11-22T00:00:00'));
    expect(dueSettlementCutoff(wib('2026-11-24T00:30:00'), 1, 10)).toEqual(wib('2026-11-23T00:00:00'));
  });

  it('T+2 and midnight runs', () => {
    expect(dueSettlementCutoff(wib('2026-11-23T10:00:00'), 2, 10)).toEqual(wib('2026-11-22T00:00:00'));
    expect(dueSettlementCutoff(wib('2026-11-23T00:00:00'), 1, 0)).toEqual(wib('2026-11-23T00:00:00'));
  });

  it('refuses schedules that would settle the future', () => {
    expect(() => dueSettlementCutoff(new Date(), 0, 10)).toThrow(RangeError);
    expect(() => dueSettlementCutoff(new Date(), 1, 24)).toThrow(RangeError);
  });

  it('derives one settlement id per merchant and cut-off', () => {
    const c = wib('2026-11-23T00:00:00');
    expect(settlementId(7, c)).toBe(settlementId(7, new Date(c)));
    expect(settlementId(7, c)).not.toBe(settlementId(8, c));
    expect(settlementId(7, c)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('settlementDueAt', () => {
  it('is the first instant whose cut-off takes the pay-in: T+n at the hour, Jakarta days', () => {
    expect(settlementDueAt(wib('2026-11-22T14:00:00'), 2, 10)).toEqual(wib('2026-11-24T10:00:00'));
    expect(settlementDueAt(wib('2026-11-22T23:59:59'), 1, 10)).toEqual(wib('2026-11-23T10:00:00'));
    // Midnight WIB exactly belongs to the new day (the cut-off takes what succeeded before it).
    expect(settlementDueAt(wib('2026-11-23T00:00:00'), 1, 10)).toEqual(wib('2026-11-24T10:00:00'));
    // 20:00 UTC is already the next day in Jakarta.
    expect(settlementDueAt(new Date('2026-11-22T20:00:00Z'), 1, 0)).toEqual(wib('2026-11-24T00:00:00'));
  });

  it('agrees with dueSettlementCutoff: not due a moment before, due from then on', () => {
    for (const [paid, n, h] of [
      ['2026-11-22T14:00:00', 2, 10],
      ['2026-11-23T00:00:00', 1, 0],
      ['2026-11-30T09:59:59', 3, 23],
      ['2026-12-31T23:59:59', 1, 10],
    ] as const) {
      const successAt = wib(paid);
      const due = settlementDueAt(successAt, n, h);
      expect(dueSettlementCutoff(due, n, h).getTime()).toBeGreaterThan(successAt.getTime());
      expect(dueSettlementCutoff(new Date(due.getTime() - 1), n, h).getTime()).toBeLessThanOrEqual(successAt.getTime());
    }
  });

  it('refuses the schedules dueSettlementCutoff refuses', () => {
    expect(() => settlementDueAt(new Date(), 0, 10)).toThrow(RangeError);
    expect(() => settlementDueAt(new Date(), 1, 24)).toThrow(RangeError);
  });
});
