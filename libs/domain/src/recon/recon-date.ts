const JAKARTA_OFFSET_MS = 7 * 3_600_000;

export type ReconDate = { ok: true; date: string; from: Date; to: Date } | { ok: false; problem: string };

/**
 * A recon date `YYYY-MM-DD`, read as a day in Asia/Jakarta: [00:00 WIB, next 00:00 WIB).
 * Refused: another format, an impossible day (2026-02-30), a day after today in Jakarta.
 */
export function parseReconDate(text: string, now: Date): ReconDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return { ok: false, problem: 'must be a date in the format YYYY-MM-DD' };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utcMidnight = Date.UTC(y, mo - 1, d);
  const check = new Date(utcMidnight);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return { ok: false, problem: `${text} is not a real date` };
  const today = new Date(now.getTime() + JAKARTA_OFFSET_MS).toISOString().slice(0, 10);
  if (text > today) return { ok: false, problem: `${text} is in the future (today is ${today} in Asia/Jakarta)` };
  return { ok: true, date: text, ...jakartaDay(text) };
}

/** [00:00 WIB, next 00:00 WIB) of a valid `YYYY-MM-DD`. */
export function jakartaDay(date: string): { from: Date; to: Date } {
  const from = new Date(Date.parse(`${date}T00:00:00Z`) - JAKARTA_OFFSET_MS);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}
