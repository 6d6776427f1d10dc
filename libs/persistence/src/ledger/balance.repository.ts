import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { sql, type SqlClient, sqlClient } from '../client/sql';

/** Reads the balance projection. Only the ledger writes it. */
export class BalanceRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  async get(merchantId: number): Promise<{ available: Minor; pending: Minor }> {
    // Plain pg, prepared: every balance request runs this (docs/decisions/0010, 0011).
    const [row] = await this.db.query<{ available: bigint; pending: bigint }>(
      sql`SELECT available, pending FROM balances WHERE merchant_id = ${merchantId}`,
    );
    return row ?? { available: 0n, pending: 0n };
  }

  /** Every merchant's balance (operators' merchant list): one statement, keyed by merchant id. */
  async all(): Promise<Map<number, { available: Minor; pending: Minor }>> {
    const rows = await this.db.query<{ merchantId: number; available: bigint; pending: bigint }>(
      sql`SELECT merchant_id AS "merchantId", available, pending FROM balances`,
    );
    return new Map(rows.map((r) => [r.merchantId, { available: r.available, pending: r.pending }]));
  }
}
