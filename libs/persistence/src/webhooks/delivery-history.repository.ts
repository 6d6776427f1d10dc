import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, type SqlClient, sqlClient } from '../client/sql';
import type { WebhookAttempt, WebhookDelivery } from '../generated/prisma/client';

/** What a delivery is about: a disbursement or a pay-in of the merchant. */
export type DeliverySubject = { disbursementId: string } | { payinId: string };

/** A recent delivery, the merchant's id of its transaction, and its last attempt (null before the first). */
export type RecentDelivery = WebhookDelivery & { merchantTrxId: string | null; lastAttempt: WebhookAttempt | null };

// Every delivery status, each its own range of webhook_deliveries_merchant_id_status_idx: the
// newest of all is a merge of five ordered ranges (Merge Append), not a sort of every delivery.
const STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'dead'];

/**
 * The merchant's side of its callback deliveries, for the dashboard: those of one transaction
 * with every attempt, and the most recent ones. Every statement names the merchant, so an id of
 * another merchant's transaction finds nothing.
 */
export class DeliveryHistoryRepository {
  private readonly db: SqlClient;

  /** On the pool; or on any SqlClient (a spec's, which also explains the statements). */
  constructor(db: Pool | SqlClient) {
    this.db = 'execute' in db ? db : sqlClient(db);
  }

  /** The transaction's deliveries, oldest first, each with its attempts in order. */
  async ofTransaction(
    merchantId: number,
    subject: DeliverySubject,
  ): Promise<(WebhookDelivery & { attempts: WebhookAttempt[] })[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'disbursementId' in subject
        ? sql`SELECT * FROM webhook_deliveries WHERE disbursement_id = ${subject.disbursementId}::uuid AND merchant_id = ${merchantId} ORDER BY created_at, id`
        : sql`SELECT * FROM webhook_deliveries WHERE payin_id = ${subject.payinId}::uuid AND merchant_id = ${merchantId} ORDER BY created_at, id`,
    );
    const deliveries = rows.map((r) => fromRow<WebhookDelivery>(r));
    if (deliveries.length === 0) return [];
    const attempts = (
      await this.db.query<Record<string, unknown>>(
        sql`SELECT * FROM webhook_attempts WHERE delivery_id = ANY(${deliveries.map((d) => d.id)}::uuid[]) ORDER BY delivery_id, attempt_no`,
      )
    ).map((r) => fromRow<WebhookAttempt>(r));
    return deliveries.map((d) => ({ ...d, attempts: attempts.filter((a) => a.deliveryId === d.id) }));
  }

  /** The merchant's `limit` newest deliveries (disbursement and pay-in callbacks), newest first. */
  async recent(merchantId: number, limit: number): Promise<RecentDelivery[]> {
    const ranges = STATUSES.map(
      (s) =>
        `(SELECT * FROM webhook_deliveries WHERE merchant_id = $1 AND status = '${s}' ORDER BY created_at DESC LIMIT $2)`,
    ).join(' UNION ALL ');
    const rows = await this.db.query<
      Record<string, unknown> & { merchant_trx_id: string | null; last_attempt: Record<string, unknown> | null }
    >({
      text: `
        WITH recent AS (${ranges} ORDER BY created_at DESC LIMIT $2)
        SELECT r.*, coalesce(d.merchant_trx_id, p.merchant_trx_id) AS merchant_trx_id, to_jsonb(a) AS last_attempt
          FROM recent r
          LEFT JOIN disbursements d ON d.id = r.disbursement_id AND d.merchant_id = $1
          LEFT JOIN payins p ON p.id = r.payin_id AND p.merchant_id = $1
          LEFT JOIN LATERAL (SELECT * FROM webhook_attempts wa WHERE wa.delivery_id = r.id ORDER BY wa.attempt_no DESC LIMIT 1) a ON true
         ORDER BY r.created_at DESC, r.id DESC`,
      values: [merchantId, limit],
    });
    return rows.map(({ merchant_trx_id, last_attempt, ...r }) => ({
      ...fromRow<WebhookDelivery>(r),
      merchantTrxId: merchant_trx_id,
      lastAttempt: last_attempt ? attemptFromJson(last_attempt) : null,
    }));
  }
}

/** An attempt read through to_jsonb: times are text there, and the id a number. */
function attemptFromJson(j: Record<string, unknown>): WebhookAttempt {
  const a = fromRow<Record<string, unknown>>(j);
  return {
    ...(a as unknown as WebhookAttempt),
    id: BigInt(a.id as number),
    startedAt: new Date(a.startedAt as string),
    nextAttemptAt: a.nextAttemptAt ? new Date(a.nextAttemptAt as string) : null,
  };
}
