/**
 * Money is an integer count of minor units (1/100 Rupiah) held in a bigint.
 * Parsing and formatting work on decimal strings so no float ever takes part in arithmetic;
 * the JSON number a merchant sees is produced only at the edge by formatAmount.
 */
export type Minor = bigint;

const DECIMAL = /^(0|[1-9]\d{0,15})(?:\.(\d{1,2}))?$/;

export class InvalidAmountError extends Error {
  constructor(
    readonly input: unknown,
    reason: string,
  ) {
    super(reason);
    this.name = 'InvalidAmountError';
  }
}

/** Parses a non-negative Rupiah amount with at most two decimals ("50000", 50000, 1234.5) into minor units. */
export function parseAmount(input: number | string): Minor {
  const text = typeof input === 'number' ? numberToPlainString(input) : input.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new InvalidAmountError(input, 'must be a non-negative amount with at most two decimals');
  const [, whole, frac = ''] = match;
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) return 'NaN';
  // String() gives the shortest round-trip text, so 0.1 stays "0.1"; exponents are refused by the regex.
  return String(n);
}

/** Minor units to a decimal string with at most two decimals and no trailing zeros ("49500", "1234.5"). */
export function formatAmountString(minor: Minor): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / 100n;
  const frac = abs % 100n;
  const fracText = frac === 0n ? '' : '.' + frac.toString().padStart(2, '0').replace(/0$/, '');
  return `${negative ? '-' : ''}${whole}${fracText}`;
}

/** Minor units to the JSON number the API shows. Exact for every balance below 2^53 / 100 Rupiah. */
export function formatAmount(minor: Minor): number {
  return Number(formatAmountString(minor));
}
