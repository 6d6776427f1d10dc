import { createHash } from 'node:crypto';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const JAKARTA_OFFSET_MS = 7 * HOUR_MS; // WIB, no daylight saving

/**
 * The settlement due at `now` under a T+`delayDays` at `hour`:00 (Asia/Jakarta) schedule,
 * expressed as its cut-off: pay-ins that succeeded before the cut-off settle in it.
 * T+1 at 10: on 23 Nov from 10:00 WIB the cut-off is 23 Nov 00:00 WIB (all of 22 Nov and
 * before); before 10:00 it is still 22 Nov 00:00 WIB.
 */
export function dueSettlementCutoff(now: Date, delayDays: number, hour: number): Date {
  if (!Number.isInteger(delayDays) || delayDays < 1)
    throw new RangeError('delayDays must be a whole number of days, at least 1');
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError('hour must be 0..23');
  const local = now.getTime() + JAKARTA_OFFSET_MS;
  let runDay = Math.floor(local / DAY_MS) * DAY_MS;
  if (local - runDay < hour * HOUR_MS) runDay -= DAY_MS;
  return new Date(runDay - (delayDays - 1) * DAY_MS - JAKARTA_OFFSET_MS);
}

/**
 * When a pay-in that succeeded at `successAt` falls due under a T+`delayDays` at `hour`:00
 * (Asia/Jakarta) schedule: the first instant whose dueSettlementCutoff lies after it, i.e. `hour`:00
 * WIB `delayDays` days after the Jakarta day it succeeded on. T+2 at 10, paid 22 Nov 14:00 WIB: due
 * 24 Nov 10:00 WIB. What a sandbox clock steps to (apps/workers sandbox-clock.runner).
 */
export function settlementDueAt(successAt: Date, delayDays: number, hour: number): Date {
  if (!Number.isInteger(delayDays) || delayDays < 1)
    throw new RangeError('delayDays must be a whole number of days, at least 1');
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError('hour must be 0..23');
  // The cut-off that takes it: the Jakarta midnight after it (a pay-in at midnight exactly is the new day's).
  const local = successAt.getTime() + JAKARTA_OFFSET_MS;
  const cutoffDay = Math.floor(local / DAY_MS) * DAY_MS + DAY_MS;
  return new Date(cutoffDay + (delayDays - 1) * DAY_MS + hour * HOUR_MS - JAKARTA_OFFSET_MS);
}

/** A UUID (version 5 layout) derived from a name: the same merchant and cut-off always give the same settlement id. */
export function nameBasedUuid(name: string): string {
  const h = createHash('sha1').update(`qris-payments:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function settlementId(merchantId: number, cutoff: Date): string {
  return nameBasedUuid(`settlement:${merchantId}:${cutoff.toISOString()}`);
}
