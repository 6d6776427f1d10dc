import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, type SqlClient, sqlClient, sqlText } from '../client/sql';
import type { Payin } from '../generated/prisma/client';
import type { NewDelivery } from '../webhooks/webhook-delivery.repository';
import { payinCallbackDelivery } from './payin-callback';

export interface ExpiryRound {
  /** Pay-ins moved from pending to expired */
  expired: number;
  /** payin.expired callbacks written (pay-ins with a callback URL) */
  callbacks: number;
}

export interface DuePayin {
  id: string;
  platformTrxId: string;
  expiresAt: Date;
  amount: Minor;
}

/**
 * The expiry scan: pending codes past expires_at become `expired`, each with its payin.expired
 * callback written in the same transaction. Rows another scan (or an acquirer notification) holds
 * are skipped (SKIP LOCKED), so any number of workers can scan at once; a row is expired once
 * (the UPDATE re-checks `pending`), and its callback is unique by event id. An idle scan is one
 * probe of payins_pending_expires_at_idx. Plain pg, like the other per-row work of the workers.
 */
export class PayinExpiryRepository {
  constructor(private readonly pool: Pool) {}

  /** Pending codes past their expiry, oldest first (what the acquirer is asked about before they expire). */
  async due(now: Date, limit: number): Promise<DuePayin[]> {
    const rows = await sqlClient(this.pool).query<{
      id: string;
      platform_trx_id: string;
      expires_at: Date;
      amount: string;
    }>(sql`
      SELECT id::text, platform_trx_id, expires_at, amount::text FROM payins
       WHERE status = 'pending' AND expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`);
    return rows.map((r) => ({
      id: r.id,
      platformTrxId: r.platform_trx_id,
      expiresAt: r.expires_at,
      amount: BigInt(r.amount) as Minor,
    }));
  }

  /**
   * `except`: codes that stay pending this round (their acquirer did not answer). `merchantId`: that
   * merchant's codes only, due by its sandbox clock's `now` (apps/workers sandbox-clock.runner).
   */
  expireDue(now: Date, limit: number, except: readonly string[] = [], merchantId?: number): Promise<ExpiryRound> {
    const ofMerchant = merchantId === undefined ? sqlText('') : sql`AND merchant_id = ${merchantId}`;
    return inTransaction(this.pool, async (tx) => {
      const rows = await tx.query<
        Record<string, unknown> & { merchant_name: string; merchant_callback_url: string | null }
      >(sql`
        WITH due AS (
          SELECT id FROM payins WHERE status = 'pending' AND expires_at <= ${now}
             AND NOT (id = ANY(${[...except]}::uuid[])) ${ofMerchant}
           ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE payins p SET status = 'expired'
          FROM due, merchants m
         WHERE p.id = due.id AND p.status = 'pending' AND m.id = p.merchant_id
        RETURNING p.*, m.name AS merchant_name, m.payin_callback_url AS merchant_callback_url`);
      const deliveries = rows.map((row) => {
        const { merchant_name, merchant_callback_url, ...payin } = row;
        return payinCallbackDelivery(
          fromRow<Payin>(payin),
          { name: merchant_name, payinCallbackUrl: merchant_callback_url },
          now,
        );
      });
      const callbacks = deliveries.length ? await insertDeliveries(tx, deliveries, now) : 0;
      return { expired: rows.length, callbacks };
    });
  }
}

/** Many deliveries in one statement; an event id already delivered-for is skipped. */
async function insertDeliveries(tx: SqlClient, ds: NewDelivery[], now: Date): Promise<number> {
  const col = <K extends keyof NewDelivery>(k: K) => ds.map((d) => d[k] ?? null);
  return tx.execute(sql`
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, payin_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
    SELECT gen_random_uuid(), t.event_id, t.event_type, t.merchant_id, t.payin_id, t.url, t.body, 'pending', ${now}, t.log_id, ${now}, ${now}
      FROM unnest(${col('eventId')}::text[], ${col('eventType')}::text[], ${col('merchantId')}::int[], ${col('payinId')}::uuid[],
                  ${col('url')}::text[], ${col('body')}::text[], ${col('logId')}::text[])
        AS t(event_id, event_type, merchant_id, payin_id, url, body, log_id)
     ORDER BY t.merchant_id -- each merchant's event counter locked in one order by every writer: no deadlock
    ON CONFLICT (event_id) DO NOTHING`);
}
