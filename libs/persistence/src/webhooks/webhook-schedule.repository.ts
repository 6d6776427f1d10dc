import type { Pool } from 'pg';
import { sql, sqlClient, type SqlClient } from '../client/sql';

export interface DueDeliveries {
  /** Deliveries due now (or abandoned by a dead worker), oldest first, with their attempt counts */
  due: { id: string; attemptCount: number }[];
  /** The earliest scheduled retry after `now`; null when none */
  nextDueAt: Date | null;
}

/**
 * What the webhook dispatcher asks the database: what is due now, and (in the same statement)
 * when the next scheduled retry falls due, so it can sleep until then instead of polling.
 * Both read webhook_deliveries_due_idx.
 */
export class WebhookScheduleRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  async dueAndNext(now: Date, limit: number): Promise<DueDeliveries> {
    const rows = await this.db.query<{ id: string | null; attemptCount: number | null; nextDueAt: Date | null }>(sql`
      WITH due AS (
        SELECT id, attempt_count, next_attempt_at FROM webhook_deliveries
         WHERE (status = 'pending' AND next_attempt_at <= ${now}) OR (status = 'delivering' AND lease_until < ${now})
         ORDER BY next_attempt_at NULLS FIRST LIMIT ${limit}),
      upcoming AS (SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > ${now})
      SELECT due.id, due.attempt_count AS "attemptCount", upcoming.at AS "nextDueAt"
        FROM upcoming LEFT JOIN due ON true
       ORDER BY due.next_attempt_at NULLS FIRST`);
    return {
      due: rows.filter((r) => r.id !== null).map((r) => ({ id: r.id as string, attemptCount: r.attemptCount as number })),
      nextDueAt: rows[0]?.nextDueAt ?? null,
    };
  }
}
