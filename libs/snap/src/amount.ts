/** SNAP's amount object: `{"value":"150000.00","currency":"IDR"}`, value with exactly two decimals. */
export interface SnapAmount {
  value: string;
  currency: string;
}

/** Integer minor units (sen) to SNAP's amount. */
export function toSnapAmount(minor: bigint, currency = 'IDR'): SnapAmount {
  if (minor < 0n) throw new RangeError('a SNAP amount is never negative');
  const whole = minor / 100n;
  const cents = (minor % 100n).toString().padStart(2, '0');
  return { value: `${whole}.${cents}`, currency };
}

/**
 * SNAP's amount to integer minor units; null when it is not one. `^\d{1,16}\.\d{2}$` is the rule;
 * a value without decimals (`"50000"`, Mandiri's samples) is accepted as whole rupiah.
 */
export function fromSnapAmount(amount: unknown, currency = 'IDR'): bigint | null {
  if (typeof amount !== 'object' || amount === null) return null;
  const { value, currency: cur } = amount as Partial<SnapAmount>;
  if (cur !== currency || typeof value !== 'string') return null;
  const m = /^(\d{1,16})(?:\.(\d{2}))?$/.exec(value);
  if (!m) return null;
  return BigInt(m[1]) * 100n + BigInt(m[2] ?? '0');
}
