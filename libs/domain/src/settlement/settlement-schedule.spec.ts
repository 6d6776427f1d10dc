import { dueSettlementCutoff, settlementId } from './settlement-schedule';

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
