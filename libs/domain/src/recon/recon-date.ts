const JAKARTA_OFFSET_MS = 7 * 3_600_000;

export type ReconDate = { ok: true; date: string; from: Date; to: Date } | { ok: false; problem: string };

/**
 * A recon date `YYYY-MM-DD`, read as a day in Asia/Jakarta: [00:00 WIB, next 00:00 WIB).
 * Refused: another format, an impossible day (2026-02-30), a day after today in Jakarta, and a
 * day before `notBefore`'s day in Jakarta (the merchant's creation: it has no pay-ins before it,
 * and an export of years of empty days is only work for the queue).
 */
export function parseReconDate(text: string, now: Date, notBefore?: Date): ReconDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return { ok: false, problem: 'must be a date in the format YYYY-MM-DD' };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utcMidnight = Date.UTC(y, mo - 1, d);
  const check = new Date(utcMidnight);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d)
    return { ok: false, problem: `${text} is not a real date` };
  const today = jakartaDate(now);
  if (text > today) return { ok: false, problem: `${text} is in the future (today is ${today} in Asia/Jakarta)` };
  const first = notBefore && jakartaDate(notBefore);
  if (first && text < first)
    return {
      ok: false,
      problem: `${text} is before the merchant account was created (its first day is ${first} in Asia/Jakarta)`,
    };
  return { ok: true, date: text, ...jakartaDay(text) };
}

/** The day of an instant in Asia/Jakarta, YYYY-MM-DD. */
function jakartaDate(at: Date): string {
  return new Date(at.getTime() + JAKARTA_OFFSET_MS).toISOString().slice(0, 10);
}

/** [00:00 WIB, next 00:00 WIB) of a valid `YYYY-MM-DD`. */
export function jakartaDay(date: string): { from: Date; to: Date } {
  const from = new Date(Date.parse(`${date}T00:00:00Z`) - JAKARTA_OFFSET_MS);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}
