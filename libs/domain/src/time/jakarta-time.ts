/** Asia/Jakarta is UTC+7 all year (no daylight saving), so the offset is a constant. */
const JAKARTA_OFFSET_MS = 7 * 60 * 60 * 1000;

/** `YYYY-MM-DD HH:MM:SS` in Asia/Jakarta, the format of `success_at` in the API. */
export function formatJakartaDateTime(instant: Date): string {
  const local = new Date(instant.getTime() + JAKARTA_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
}
