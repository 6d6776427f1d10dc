import type { Pool } from 'pg';
import { sql, sqlClient } from '@pay/persistence';

/**
 * Folds what ledger batches moved per account (account_deltas) into the accounts' balances.
 * Batches never update an account row themselves: the platform's accounts (fee revenue, the
 * acquirer's receivable) would be rows every ledger transaction waits on. Folding takes the
 * oldest deltas no one else is folding (FOR UPDATE SKIP LOCKED), so any number of ledger
 * replicas can run it; an account's balance is exact at any instant as its row plus its
 * unfolded deltas (the view account_balances). Returns the number of deltas folded.
 */
export async function foldAccountDeltas(pool: Pool, limit = 20_000): Promise<number> {
  const [row] = await sqlClient(pool).query<{ folded: number }>(sql`
    WITH taken AS (
      DELETE FROM account_deltas WHERE id IN (
        SELECT id FROM account_deltas ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING account, amount
    ), sums AS (
      SELECT account, sum(amount)::bigint AS amount, count(*)::int AS n FROM taken GROUP BY account
    ), folded AS (
      INSERT INTO accounts (code, kind, merchant_id, balance)
      SELECT account, account_kind(account), (regexp_match(account, '^merchant:([0-9]+):'))[1]::int, amount FROM sums
      ON CONFLICT (code) DO UPDATE SET balance = accounts.balance + EXCLUDED.balance, updated_at = now()
    )
    SELECT coalesce(sum(n), 0)::int AS folded FROM sums`);
  return row.folded;
}

/** Folds every `intervalMs` (and again at once while a fold was full) until stopped. */
export class AccountFolder {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly onError: (err: unknown) => void,
    private readonly intervalMs = 1_000,
    private readonly limit = 20_000,
  ) {}

  start(): void {
    this.schedule(this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.fold().finally(() => (this.running = null));
    }, ms);
    this.timer.unref();
  }

  private async fold(): Promise<void> {
    let full = false;
    try {
      full = (await foldAccountDeltas(this.pool, this.limit)) >= this.limit;
    } catch (err) {
      // The database away: the deltas wait for the next fold; nothing is lost.
      this.onError(err);
    }
    this.schedule(full ? 0 : this.intervalMs);
  }
}
