import type { Pool } from 'pg';
import { sql, type SqlClient, sqlClient, sqlText } from '../client/sql';

/** One event of a merchant's log: its number, id, type and the callback body exactly as delivered. */
export interface MerchantEvent {
  sequence: bigint;
  eventId: string;
  eventType: string;
  body: string;
  createdAt: Date;
}

/** A callback delivery as the merchant sees it (no body: the event log has it), with its event's number. */
export interface MerchantDelivery {
  id: string;
  eventId: string;
  eventType: string;
  sequence: bigint | null;
  url: string;
  status: string;
  attemptCount: number;
  resendCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface MerchantEventPage {
  events: MerchantEvent[];
  hasMore: boolean;
}

/**
 * The merchant event log (migration 20261205090000_merchant_event_log): every callback event
 * numbered 1, 2, 3... per merchant with no gap, in the transaction that writes the callback
 * (the webhook_deliveries trigger) or, for an event with no callback URL, by `record` in the
 * producer's transaction. Plain pg; every statement names the merchant.
 */
export class MerchantEventRepository {
  private readonly db: SqlClient;

  constructor(db: Pool | SqlClient) {
    this.db = 'execute' in db ? db : sqlClient(db);
  }

  /** The events after `after`, in order, at most `limit`; hasMore when another follows. */
  async after(merchantId: number, after: bigint, limit: number): Promise<MerchantEventPage> {
    const rows = await this.db.query<{
      sequence: string;
      eventId: string;
      eventType: string;
      body: string;
      createdAt: Date;
    }>(sql`
      SELECT sequence::text AS sequence, event_id AS "eventId", event_type AS "eventType", body, created_at AS "createdAt"
        FROM merchant_events
       WHERE merchant_id = ${merchantId} AND sequence > ${after.toString()}::bigint
       ORDER BY merchant_events.sequence
       LIMIT ${limit + 1}`);
    return {
      events: rows.slice(0, limit).map((r) => ({ ...r, sequence: BigInt(r.sequence) })),
      hasMore: rows.length > limit,
    };
  }

  /**
   * Records an event that has no callback to deliver (no URL): numbered like any. Pass the
   * producer's transaction client so the number is taken in its transaction. Returns the body
   * with its "sequence"; an event id already recorded returns the recorded body.
   */
  async record(
    e: { merchantId: number; eventId: string; eventType: string; body: string },
    db: SqlClient = this.db,
  ): Promise<string> {
    const rows = await db.query<{ body: string }>(
      sql`SELECT record_merchant_event(${e.merchantId}, ${e.eventId}, ${e.eventType}, ${e.body}) AS body`,
    );
    return rows[0]?.body ?? e.body;
  }

  /**
   * The merchant's deliveries of the given statuses, newest first by (createdAt, id), at most
   * `limit`, those before `before` (a delivery id of the previous page) when given.
   */
  async deliveries(
    merchantId: number,
    statuses: readonly string[],
    limit: number,
    before?: string,
  ): Promise<{ deliveries: MerchantDelivery[]; hasMore: boolean }> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT ${DELIVERY_COLUMNS}
        FROM webhook_deliveries d
        LEFT JOIN merchant_events e ON e.event_id = d.event_id AND e.merchant_id = d.merchant_id
       WHERE d.merchant_id = ${merchantId} AND d.status = ANY(${[...statuses]}::text[])
         AND (${before ?? null}::uuid IS NULL OR (d.created_at, d.id) < (
               SELECT b.created_at, b.id FROM webhook_deliveries b WHERE b.id = ${before ?? null}::uuid AND b.merchant_id = ${merchantId}))
       ORDER BY d.created_at DESC, d.id DESC
       LIMIT ${limit + 1}`);
    return { deliveries: rows.slice(0, limit).map(toDelivery), hasMore: rows.length > limit };
  }

  /** One of the merchant's deliveries; null for an id of another merchant's or none. */
  async delivery(merchantId: number, id: string): Promise<MerchantDelivery | null> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT ${DELIVERY_COLUMNS}
        FROM webhook_deliveries d
        LEFT JOIN merchant_events e ON e.event_id = d.event_id AND e.merchant_id = d.merchant_id
       WHERE d.merchant_id = ${merchantId} AND d.id = ${id}::uuid`);
    return rows[0] ? toDelivery(rows[0]) : null;
  }
}

const DELIVERY_COLUMNS =
  sqlText(`d.id::text AS id, d.event_id AS "eventId", d.event_type AS "eventType", e.sequence::text AS sequence,
       d.url, d.status, d.attempt_count AS "attemptCount", d.resend_count AS "resendCount",
       d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_attempt_at AS "lastAttemptAt",
       d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt", d.created_at AS "createdAt"`);

function toDelivery(r: Record<string, unknown>): MerchantDelivery {
  return { ...(r as unknown as MerchantDelivery), sequence: r.sequence == null ? null : BigInt(r.sequence as string) };
}
