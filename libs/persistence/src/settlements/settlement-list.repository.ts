import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, sqlClient, type SqlClient } from '../client/sql';
import type { Settlement } from '../generated/prisma/client';

export type { Settlement };

/** Settlements the ledger has credited, for operators (the console's list): newest first. */
export class SettlementListRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /** `limit` 1 to 500 (default 100). */
  async recent(filter: { merchantId?: number; limit?: number } = {}): Promise<Settlement[]> {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT * FROM settlements
       WHERE ${filter.merchantId ?? null}::int IS NULL OR merchant_id = ${filter.merchantId ?? null}::int
       ORDER BY created_at DESC, id LIMIT ${limit}`);
    return rows.map((r) => fromRow<Settlement>(r));
  }
}
