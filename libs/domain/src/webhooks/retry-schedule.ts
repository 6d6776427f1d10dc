/**
 * Webhook retry schedule: the first attempt at once, then 9 retries after these delays
 * (each with ±20 % jitter so a merchant's recovering endpoint is not hit by a synchronized
 * wave): about 24 hours in all, then the delivery is dead-lettered.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  30_000, // 30 s
  120_000, // 2 min
  600_000, // 10 min
  1_800_000, // 30 min
  3_600_000, // 1 h
  7_200_000, // 2 h
  14_400_000, // 4 h
  28_800_000, // 8 h
  28_800_000, // 8 h
];
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/**
 * Claims of a delivery in a row whose outcome was never recorded (the worker died, or the record
 * failed) after which the next claim records a failed attempt instead of sending again, so an
 * attempt that cannot be recorded is not resent for ever: the delivery goes on along its schedule.
 */
export const WEBHOOK_MAX_UNRECORDED_CLAIMS = 3;
const JITTER = 0.2;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export type ResponseClass = 'delivered' | 'retryable' | 'final';

/**
 * 2xx delivered. Network errors and timeouts (null), 408, 429 and 5xx are worth retrying.
 * Every other status (3xx: redirects are not followed; other 4xx) is final.
 */
export function classifyResponse(statusCode: number | null): ResponseClass {
  if (statusCode === null) return 'retryable';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 408 || statusCode === 429 || statusCode >= 500) return 'retryable';
  return 'final';
}

/**
 * Delay before the next attempt, after `attemptsDone` attempts of this delivery cycle, or null
 * when the schedule is exhausted. `random` in [0, 1) picks the jitter; a Retry-After from the
 * receiver is honoured as a minimum (capped at 24 h).
 */
export function nextAttemptDelayMs(attemptsDone: number, random: number, retryAfterMs?: number): number | null {
  if (attemptsDone < 1 || attemptsDone >= WEBHOOK_MAX_ATTEMPTS) return null;
  const base = WEBHOOK_RETRY_DELAYS_MS[attemptsDone - 1];
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random));
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
