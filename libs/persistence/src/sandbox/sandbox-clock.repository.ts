import { settlementDueAt } from '@pay/domain';
import type { Pool } from 'pg';
import { inTransaction, sql, type SqlClient, sqlClient } from '../client/sql';

/** NOTIFY channel of an advance asked for (payload: the merchant id): the workers' clock runner wakes. */
export const SANDBOX_CLOCK_CHANNEL = 'sandbox_clock';

/**
 * The time a merchant's due times are computed from: QR expiry, the settlement schedule, callback
 * retries. Real time everywhere (REAL_TIME) but in sandbox mode, where a merchant's sandbox clock
 * may be ahead (SandboxClockRepository). `realNow`: the caller's real time (a test's injected one).
 */
export interface MerchantClock {
  now(merchantId: number, realNow?: Date): Promise<Date>;
}

/** Production's clock source: real time for every merchant, with no I/O. */
export const REAL_TIME: MerchantClock = { now: (_merchantId, realNow = new Date()) => Promise.resolve(realNow) };

/** A merchant's sandbox clock as stored. */
export interface SandboxClock {
  merchantId: number;
  /** Held here while ahead of real time; the clock reads greatest(frozenAt, now) */
  frozenAt: Date;
  /** Set while an advance is being walked: where it ends */
  advancingTo: Date | null;
}

/** What the walk of one step found due next for the merchant (after `after`), or null. */
export type NextDue = { at: Date; what: 'expiry' | 'settlement' | 'callback' } | null;

type ClockRow = { merchant_id: number; frozen_at: Date; advancing_to: Date | null };
const clockOf = (r: ClockRow): SandboxClock => ({
  merchantId: r.merchant_id,
  frozenAt: r.frozen_at,
  advancingTo: r.advancing_to,
});

/**
 * Sandbox clocks (sandbox_clocks; docs/merchant-api.md#sandbox-clock): the gateway reads and
 * advances them, the workers walk the advances (apps/workers sandbox-clock.runner). Only ever
 * constructed in sandbox mode: production reads REAL_TIME.
 */
export class SandboxClockRepository implements MerchantClock {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  async now(merchantId: number, realNow = new Date()): Promise<Date> {
    const clock = await this.get(merchantId);
    return clock && clock.frozenAt > realNow ? clock.frozenAt : realNow;
  }

  async get(merchantId: number): Promise<SandboxClock | null> {
    const [row] = await this.db.query<ClockRow>(
      sql`SELECT merchant_id, frozen_at, advancing_to FROM sandbox_clocks WHERE merchant_id = ${merchantId}`,
    );
    return row ? clockOf(row) : null;
  }

  /**
   * Asks for the merchant's clock to be advanced to `to` (the workers walk it, woken by NOTIFY).
   * 'advancing': an advance is still being walked; 'behind': `to` is not after the clock's time.
   */
  requestAdvance(
    merchantId: number,
    to: (clockNow: Date) => Date,
    realNow = new Date(),
  ): Promise<SandboxClock | 'advancing' | 'behind'> {
    return inTransaction(this.pool, async (tx) => {
      const [held] = await tx.query<ClockRow>(
        sql`SELECT merchant_id, frozen_at, advancing_to FROM sandbox_clocks WHERE merchant_id = ${merchantId} FOR UPDATE`,
      );
      if (held?.advancing_to) return 'advancing';
      const from = held && held.frozen_at > realNow ? held.frozen_at : realNow;
      const target = to(from);
      if (target <= from) return 'behind';
      const [row] = await tx.query<ClockRow>(sql`
        INSERT INTO sandbox_clocks (merchant_id, frozen_at, advancing_to, created_at, updated_at)
        VALUES (${merchantId}, ${from}, ${target}, ${realNow}, ${realNow})
        ON CONFLICT (merchant_id) DO UPDATE
           SET frozen_at = EXCLUDED.frozen_at, advancing_to = EXCLUDED.advancing_to, lease_until = NULL, updated_at = EXCLUDED.updated_at
        RETURNING merchant_id, frozen_at, advancing_to`);
      await tx.query(sql`SELECT pg_notify(${SANDBOX_CLOCK_CHANNEL}, ${String(merchantId)})`);
      return clockOf(row);
    });
  }

  /** Back on real time: the clock removed. 'advancing' while an advance is walked; false: there was none. */
  async reset(merchantId: number): Promise<boolean | 'advancing'> {
    // The SELECT reads the row as it was before the DELETE (one snapshot): advancing, it stays.
    const [{ advancing, gone }] = await this.db.query<{ advancing: boolean | null; gone: number }>(sql`
      WITH gone AS (DELETE FROM sandbox_clocks WHERE merchant_id = ${merchantId} AND advancing_to IS NULL RETURNING 1)
      SELECT (SELECT advancing_to IS NOT NULL FROM sandbox_clocks WHERE merchant_id = ${merchantId}) AS advancing,
             (SELECT count(*) FROM gone)::int AS gone`);
    if (advancing) return 'advancing';
    return gone > 0;
  }

  // The workers' side: walking an advance.

  /** Takes one clock with an advance to walk (leased until realNow + leaseMs; a dead walker's is taken over after). */
  async takeAdvancing(realNow: Date, leaseMs: number): Promise<SandboxClock | null> {
    const [row] = await this.db.query<ClockRow>(sql`
      UPDATE sandbox_clocks SET lease_until = ${new Date(realNow.getTime() + leaseMs)}
       WHERE merchant_id = (
         SELECT merchant_id FROM sandbox_clocks
          WHERE advancing_to IS NOT NULL AND (lease_until IS NULL OR lease_until < ${realNow})
          ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING merchant_id, frozen_at, advancing_to`);
    return row ? clockOf(row) : null;
  }

  /** The walk reached `at`: the clock reads it (GET shows the progress), the lease renewed. */
  async step(merchantId: number, at: Date, realNow: Date, leaseMs: number): Promise<void> {
    await this.db.execute(sql`
      UPDATE sandbox_clocks SET frozen_at = ${at}, lease_until = ${new Date(realNow.getTime() + leaseMs)}, updated_at = ${realNow}
       WHERE merchant_id = ${merchantId} AND advancing_to IS NOT NULL`);
  }

  /** The walk is over: the clock stands at its target, ready for the next advance. */
  async finish(merchantId: number, realNow: Date): Promise<void> {
    await this.db.execute(sql`
      UPDATE sandbox_clocks SET frozen_at = advancing_to, advancing_to = NULL, lease_until = NULL, updated_at = ${realNow}
       WHERE merchant_id = ${merchantId} AND advancing_to IS NOT NULL`);
  }

  /** Clocks ahead of real time and not advancing: their merchants' new callbacks are due on the clock, not yet in real time. */
  async ahead(realNow: Date): Promise<SandboxClock[]> {
    const rows = await this.db.query<ClockRow>(sql`
      SELECT merchant_id, frozen_at, advancing_to FROM sandbox_clocks WHERE advancing_to IS NULL AND frozen_at > ${realNow}`);
    return rows.map(clockOf);
  }

  /** The merchant's callbacks waiting for an attempt due by `at` (oldest first). */
  async dueDeliveries(merchantId: number, at: Date): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(sql`
      SELECT id::text FROM webhook_deliveries
       WHERE merchant_id = ${merchantId} AND status = 'pending' AND next_attempt_at <= ${at}
       ORDER BY next_attempt_at, id`);
    return rows.map((r) => r.id);
  }

  /**
   * Whether the merchant has work in flight the walk waits for before it moves the clock on: a
   * callback attempt under way, or a paid pay-in the ledger has not recorded yet (its settlement
   * would be missed).
   */
  async busy(merchantId: number): Promise<boolean> {
    const [row] = await this.db.query<{ busy: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE merchant_id = ${merchantId} AND status = 'delivering')
          OR EXISTS (SELECT 1 FROM payins WHERE merchant_id = ${merchantId} AND status = 'success'
                       AND ledger_event_id IS NULL AND settlement_id IS NULL) AS busy`);
    return row.busy;
  }

  /**
   * The merchant's next due instant strictly after `after`: a pending code's expiry, a pending
   * callback's next attempt, or its oldest unsettled recorded pay-in's settlement (T+n at its
   * hour, Jakarta). Null: nothing is scheduled.
   */
  async nextDue(merchantId: number, after: Date): Promise<NextDue> {
    const [row] = await this.db.query<{
      expiry: Date | null;
      callback: Date | null;
      oldest: Date | null;
      delay_days: number;
      hour: number;
    }>(sql`
      SELECT (SELECT min(expires_at) FROM payins WHERE merchant_id = m.id AND status = 'pending' AND expires_at > ${after}) AS expiry,
             (SELECT min(next_attempt_at) FROM webhook_deliveries
               WHERE merchant_id = m.id AND status = 'pending' AND next_attempt_at > ${after}) AS callback,
             (SELECT min(success_at) FROM payins
               WHERE merchant_id = m.id AND status = 'success' AND settlement_id IS NULL AND ledger_event_id IS NOT NULL
                 AND amount - fee > refunded_pending) AS oldest,
             m.settlement_delay_days AS delay_days, m.settlement_hour AS hour
        FROM merchants m WHERE m.id = ${merchantId}`);
    if (!row) return null;
    const settlement = row.oldest ? settlementDueAt(row.oldest, row.delay_days, row.hour) : null;
    const candidates: { at: Date; what: 'expiry' | 'settlement' | 'callback' }[] = [];
    if (row.expiry) candidates.push({ at: row.expiry, what: 'expiry' });
    if (settlement && settlement > after) candidates.push({ at: settlement, what: 'settlement' });
    if (row.callback) candidates.push({ at: row.callback, what: 'callback' });
    candidates.sort((a, b) => a.at.getTime() - b.at.getTime());
    return candidates[0] ?? null;
  }
}
