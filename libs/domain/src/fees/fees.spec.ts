import { parseAmount } from '../money/money';
import { payinFee, pctMilliToPercent, percentToPctMilli } from './fees';

describe('payinFee', () => {
  it('reproduces the spec example: 50000 at 0.7 % + 150 is 500', () => {
    expect(payinFee(parseAmount(50000), { pctMilli: 700, fixed: parseAmount(150) })).toBe(parseAmount(500));
  });

  it('rounds the percentage part half up to the sen', () => {
    // 10001 * 0.7 % = 70.007 -> 70.01
    expect(payinFee(parseAmount(10001), { pctMilli: 700, fixed: 0n })).toBe(7001n);
    // 0.5 sen rounds up: 0.71 * 0.7 % = 0.00497 -> 0 sen; 1.5 sen case: 2.15 at 0.7 % = 1.505 sen -> 2 sen
    expect(payinFee(parseAmount(2.15), { pctMilli: 700, fixed: 0n })).toBe(2n);
    expect(payinFee(parseAmount(0.71), { pctMilli: 700, fixed: 0n })).toBe(0n);
  });

  it('never charges more than the amount', () => {
    expect(payinFee(parseAmount(100), { pctMilli: 700, fixed: parseAmount(150) })).toBe(parseAmount(100));
  });

  it('converts percentages both ways', () => {
    expect(percentToPctMilli('0.7')).toBe(700);
    expect(percentToPctMilli(1.25)).toBe(1250);
    expect(pctMilliToPercent(700)).toBe(0.7);
    expect(pctMilliToPercent(2000)).toBe(2);
    expect(pctMilliToPercent(1250)).toBe(1.25);
    expect(() => percentToPctMilli('101')).toThrow(RangeError);
    expect(() => percentToPctMilli('-1')).toThrow(RangeError);
  });
});
