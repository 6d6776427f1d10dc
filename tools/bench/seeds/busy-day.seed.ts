import { formatJakartaDateTime } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';

/** Yesterday in Asia/Jakarta (the day a recon export is asked for) and its first instant. */
export function reconDay(): { date: string; start: Date } {
  const date = formatJakartaDateTime(new Date(Date.now() - 86_400_000)).slice(0, 10);
  return { date, start: new Date(Date.parse(`${date}T00:00:00+07:00`)) };
}

/**
 * `n` QRIS pay-ins of one merchant created over one day from `dayStart` (one every 80 ms for
 * 1,000,000), 90 % paid, set-based: the recon export's busy day. The unpaid 10 % are `expired`, as
 * the workers' expiry scan leaves a past day (left `pending`, the scan would expire them during
 * the export, and the file would be stale before it is downloaded).
 */
export async function insertBusyDay(
  prisma: PrismaClient,
  merchantId: number,
  nmid: string,
  dayStart: Date,
  n: number,
): Promise<void> {
  const gap = Math.floor(80_000_000_000 / n); // microseconds between two pay-ins: the day is filled the same whatever n
  await prisma.$executeRawUnsafe(
    `
    INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, rrn, success_at, created_at, nmid, issuer, expires_at)
    SELECT gen_random_uuid(), ${merchantId}, 'ORD-' || g, 'QRBENCH' || lpad(g::text, 12, '0'), 5000000 + (g % 1000) * 100, 50000, 700, 15000,
           CASE WHEN g % 10 = 0 THEN 'expired' ELSE 'success' END,
           CASE WHEN g % 10 = 0 THEN NULL ELSE lpad(g::text, 12, '0') END,
           CASE WHEN g % 10 = 0 THEN NULL ELSE $1::timestamptz + (g * interval '${gap} microseconds') + interval '1 minute' END,
           $1::timestamptz + (g * interval '${gap} microseconds'), '${nmid}', 'DANA', $1::timestamptz + (g * interval '${gap} microseconds') + interval '15 minutes'
      FROM generate_series(1, ${n}) AS g`,
    dayStart,
  );
}
