import { randomInt } from 'node:crypto';

const JAKARTA_OFFSET_MS = 7 * 3_600_000;

/** Jakarta wall-clock digits of an instant: yyyy, MM, dd, HH, mm, ss. */
function jakartaParts(at: Date): string[] {
  const d = new Date(at.getTime() + JAKARTA_OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return [
    p(d.getUTCFullYear(), 4),
    p(d.getUTCMonth() + 1),
    p(d.getUTCDate()),
    p(d.getUTCHours()),
    p(d.getUTCMinutes()),
    p(d.getUTCSeconds()),
  ];
}

/** X-TIMESTAMP as ASPI writes it: `yyyy-MM-ddTHH:mm:ss+07:00`, Jakarta time, no milliseconds. */
export function snapTimestamp(at: Date): string {
  const [y, mo, d, h, mi, s] = jakartaParts(at);
  return `${y}-${mo}-${d}T${h}:${mi}:${s}+07:00`;
}

/** Parses an X-TIMESTAMP-style ISO-8601 value with an offset; null when it is not one. */
export function parseSnapTimestamp(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * X-EXTERNAL-ID: numeric, unique per partner per calendar day (a repeat is refused with 409xx00).
 * `yyyyMMddHHmmss` (Jakarta) + a per-process counter + random digits, `length` digits in all
 * (default 32, so it fits the 32-character `originalExternalId` fields; at least 19 for strict banks).
 * Within one process the counter alone keeps ids of one second apart; across processes, with
 * length 32 the 13 random digits make a collision within a second of each other about 1 in 10^13 per pair.
 */
export class ExternalIds {
  private counter = 0;

  constructor(
    private readonly length = 32,
    private readonly clock: () => Date = () => new Date(),
  ) {
    if (length < 19 || length > 36) throw new Error('X-EXTERNAL-ID length must be between 19 and 36');
  }

  next(): string {
    const stamp = jakartaParts(this.clock()).join('');
    this.counter = (this.counter + 1) % 10_000;
    const counter = String(this.counter).padStart(4, '0');
    let random = '';
    while (stamp.length + counter.length + random.length < this.length) random += String(randomInt(0, 10));
    return `${stamp}${counter}${random}`.slice(0, this.length);
  }
}
