import type { Minor } from '../money/money';

/**
 * A QRIS fee: a percentage of the amount plus a fixed part. The percentage is held as
 * thousandths of a percent (700 = 0.7 %) so it stays an integer.
 */
export interface PayinFeeRate {
  pctMilli: number;
  fixed: Minor;
}

const MILLI_PERCENT_DENOMINATOR = 100_000n; // 100 % expressed in thousandths of a percent

/**
 * The one fee rounding rule: the percentage part is rounded half up to the nearest sen
 * (1/100 Rupiah, the minor unit), then the fixed part is added. The fee never exceeds the amount.
 */
export function payinFee(amount: Minor, rate: PayinFeeRate): Minor {
  if (amount < 0n) throw new RangeError('amount must not be negative');
  const scaled = amount * BigInt(rate.pctMilli);
  const percentPart = (scaled * 2n + MILLI_PERCENT_DENOMINATOR) / (MILLI_PERCENT_DENOMINATOR * 2n);
  const fee = percentPart + rate.fixed;
  return fee > amount ? amount : fee;
}

/** 700 -> 0.7, for the `percentage` field of the fee object. */
export function pctMilliToPercent(pctMilli: number): number {
  const whole = Math.trunc(pctMilli / 1000);
  const frac = (pctMilli % 1000).toString().padStart(3, '0').replace(/0+$/, '');
  return Number(frac ? `${whole}.${frac}` : `${whole}`);
}

/** "0.7" or 0.7 -> 700. At most three decimals of a percent. */
export function percentToPctMilli(input: string | number): number {
  const text = String(input).trim();
  const match = /^(\d{1,3})(?:\.(\d{1,3}))?$/.exec(text);
  if (!match) throw new RangeError('percentage must be between 0 and 100 with at most three decimals');
  const value = Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  if (value > 100_000) throw new RangeError('percentage must be between 0 and 100 with at most three decimals');
  return value;
}
