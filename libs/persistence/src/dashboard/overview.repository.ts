import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { sql, type SqlClient, sqlClient } from '../client/sql';

/** One day (Asia/Jakarta) of a merchant's activity. */
export interface DayTotals {
  /** YYYY-MM-DD, Asia/Jakarta */
  date: string;
  /** Pay-ins paid (status success) that day, by their success time */
  payinAmount: Minor;
  payinCount: number;
  /** Payouts created that day that are going out or went out (pending, funding, success: not refused, not failed) */
  payoutAmount: Minor;
  payoutCount: number;
}

const JAKARTA_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The merchant dashboard's overview: per-day totals of the last days, every day present (zero
 * when nothing happened). Each side is one index range of one merchant: successful pay-ins by
 * success time (payins_merchant_id_paid_idx, an index-only scan, migration
 * 20261127010000_dashboard_overview), payouts by creation time (the status index of the lists).
 */
export class OverviewRepository {
  private readonly db: SqlClient;

  constructor(db: Pool | SqlClient) {
    this.db = 'execute' in db ? db : sqlClient(db);
  }

  /** The `days` Jakarta days ending with the day of `now`, oldest first. */
  async daily(merchantId: number, now: Date, days: number): Promise<DayTotals[]> {
    const today = new Date(now.getTime() + JAKARTA_OFFSET_MS).toISOString().slice(0, 10);
    const to = new Date(Date.parse(`${today}T00:00:00Z`) - JAKARTA_OFFSET_MS + DAY_MS);
    const from = new Date(to.getTime() - days * DAY_MS);
    const rows = await this.db.query<{
      date: string;
      payin_amount: bigint;
      payin_count: bigint;
      payout_amount: bigint;
      payout_count: bigint;
    }>(sql`
      WITH paid AS (
        SELECT (success_at AT TIME ZONE 'Asia/Jakarta')::date AS day, sum(amount)::bigint AS amount, count(*) AS n
          FROM payins
         WHERE merchant_id = ${merchantId} AND status = 'success' AND success_at >= ${from} AND success_at < ${to}
         GROUP BY 1
      ), paid_out AS (
        SELECT (created_at AT TIME ZONE 'Asia/Jakarta')::date AS day, sum(amount)::bigint AS amount, count(*) AS n
          FROM disbursements
         WHERE merchant_id = ${merchantId} AND status IN ('pending', 'funding', 'success') AND created_at >= ${from} AND created_at < ${to}
         GROUP BY 1
      ), days AS (
        SELECT (${from}::timestamptz AT TIME ZONE 'Asia/Jakarta')::date + g AS day FROM generate_series(0, ${days - 1}::int) g
      )
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
             coalesce(p.amount, 0)::bigint AS payin_amount, coalesce(p.n, 0)::bigint AS payin_count,
             coalesce(o.amount, 0)::bigint AS payout_amount, coalesce(o.n, 0)::bigint AS payout_count
        FROM days d LEFT JOIN paid p ON p.day = d.day LEFT JOIN paid_out o ON o.day = d.day
       ORDER BY d.day`);
    return rows.map((r) => ({
      date: r.date,
      payinAmount: BigInt(r.payin_amount),
      payinCount: Number(r.payin_count),
      payoutAmount: BigInt(r.payout_amount),
      payoutCount: Number(r.payout_count),
    }));
  }
}
