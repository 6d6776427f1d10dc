import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';

/** Reads the balance projection. Only the ledger writes it. */
export class BalanceRepository {
  constructor(private readonly pool: Pool) {}

  async get(merchantId: number): Promise<{ available: Minor; pending: Minor }> {
    // Plain pg: every balance request runs this (docs/decisions/0010).
    const { rows } = await this.pool.query<{ available: string; pending: string }>('SELECT available::text, pending::text FROM balances WHERE merchant_id = $1', [merchantId]);
    return rows[0] ? { available: BigInt(rows[0].available), pending: BigInt(rows[0].pending) } : { available: 0n, pending: 0n };
  }
}
