import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { GroupWriter } from '../client/group-writer';
import { fromRow } from '../client/rows';
import { sql, sqlClient, type SqlClient, type SqlQuery, sqlText } from '../client/sql';
import type { WebhookAttempt, WebhookDelivery } from '../generated/prisma/client';

export type { WebhookAttempt, WebhookDelivery };
export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed' | 'dead';

export interface NewDelivery {
  eventId: string;
  eventType: string;
  merchantId: number;
  disbursementId: string | null;
  /** Set instead of disbursementId for a pay-in callback */
  payinId?: string | null;
  url: string;
  body: string;
  logId?: string;
}

/**
 * A delivery taken for an attempt, the secrets to sign it with (the current one first), and how
 * many claims in a row, this one included, have no recorded outcome (1: only this one).
 */
export type ClaimedDelivery = WebhookDelivery & { signingSecrets: string[]; unrecordedClaims: number };

/** Deliveries taken for an attempt each, and when the next scheduled retry falls due (null: none). */
export interface ClaimedDeliveries {
  claimed: ClaimedDelivery[];
  nextDueAt: Date | null;
}

type ClaimedRow = Record<string, unknown> & {
  secret_current: string;
  secret_previous: string | null;
  unrecorded_claims: number;
};

/** Claimable now: pending and due, or left `delivering` by a worker that died (lease lapsed). `d`: the table's alias with its dot, or nothing. */
function claimable(now: Date, d: SqlQuery): SqlQuery {
  return sql`((${d}status = 'pending' AND ${d}next_attempt_at <= ${now}) OR (${d}status = 'delivering' AND ${d}lease_until < ${now}))`;
}

/** A claim (alias `d`): delivering, leased until now + leaseMs, one attempt more. */
function claiming(now: Date, leaseMs: number): SqlQuery {
  return sql`status = 'delivering', lease_until = ${new Date(now.getTime() + leaseMs)},
             attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1, updated_at = ${now}`;
}

/**
 * The claimed row (alias `d`) with the secrets to sign it with now (merchant alias `m`; see
 * signingSecrets), and its claims since the last recorded attempt (attempt_count counts claims).
 */
function withSecrets(now: Date): SqlQuery {
  return sql`d.*, m.webhook_secret AS secret_current,
             CASE WHEN m.webhook_secret_previous_expires_at > ${now} THEN m.webhook_secret_previous END AS secret_previous,
             d.attempt_count - COALESCE((SELECT max(a.attempt_no) FROM webhook_attempts a WHERE a.delivery_id = d.id), 0) AS unrecorded_claims`;
}

function claimedDelivery({
  secret_current,
  secret_previous,
  unrecorded_claims,
  ...delivery
}: ClaimedRow): ClaimedDelivery {
  return {
    ...fromRow<WebhookDelivery>(delivery),
    signingSecrets: secret_previous ? [secret_current, secret_previous] : [secret_current],
    unrecordedClaims: unrecorded_claims,
  };
}

export interface AttemptRecord {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  outcome: 'delivered' | 'retry' | 'failed' | 'dead';
  nextAttemptAt: Date | null;
}

/** One attempt as written: the attempt row and the delivery's state after it. */
interface RecordedAttempt {
  deliveryId: string;
  attemptNo: number;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  outcome: AttemptRecord['outcome'];
  nextAttemptAt: Date | null;
  status: DeliveryStatus;
  deliveredAt: Date | null;
  updatedAt: Date;
}

function recorded(delivery: WebhookDelivery, attempt: AttemptRecord): RecordedAttempt {
  return {
    deliveryId: delivery.id,
    attemptNo: delivery.attemptCount,
    startedAt: attempt.startedAt,
    latencyMs: attempt.latencyMs,
    statusCode: attempt.statusCode,
    error: attempt.error,
    responseBody: attempt.responseBody,
    outcome: attempt.outcome,
    nextAttemptAt: attempt.nextAttemptAt,
    status: attempt.outcome === 'retry' ? 'pending' : attempt.outcome,
    deliveredAt: attempt.outcome === 'delivered' ? new Date(attempt.startedAt.getTime() + attempt.latencyMs) : null,
    updatedAt: new Date(),
  };
}

/**
 * Webhook deliveries and their attempts; the delivery row is the source of truth for retries.
 * Plain pg: every final disbursement status passes through here (docs/decisions/0010).
 */
export class WebhookDeliveryRepository {
  private readonly db: SqlClient;
  /** Attempts of concurrent deliveries are recorded together: one statement, one transaction. */
  private readonly attempts: GroupWriter<RecordedAttempt>;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
    this.attempts = new GroupWriter(
      (items) => this.writeAttempts(items),
      (item) => this.writeAttempt(item),
    );
  }

  /** One delivery per event id: a redelivered event returns the existing one. */
  async create(d: NewDelivery, now: Date): Promise<WebhookDelivery> {
    const created = await this.one(sql`
      INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, payin_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
      VALUES (${randomUUID()}::uuid, ${d.eventId}, ${d.eventType}, ${d.merchantId}, ${d.disbursementId}::uuid, ${d.payinId ?? null}::uuid, ${d.url}, ${d.body}, 'pending', ${now}, ${d.logId ?? null}, ${now}, ${now})
      ON CONFLICT (event_id) DO NOTHING
      RETURNING *`);
    if (created) return created;
    const existing = await this.one(sql`SELECT * FROM webhook_deliveries WHERE event_id = ${d.eventId}`);
    if (!existing) throw new Error(`webhook delivery for event ${d.eventId} not found`);
    return existing;
  }

  /**
   * Takes the delivery for one attempt if it is due (pending and next_attempt_at reached) or
   * was left `delivering` by a worker that died (lease lapsed), with the secrets to sign it
   * with now (see signingSecrets), in one statement. Null when not claimable.
   */
  async claim(id: string, now: Date, leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = await this.db.query<ClaimedRow>(sql`
      UPDATE webhook_deliveries d SET ${claiming(now, leaseMs)}
        FROM merchants m
       WHERE d.id = ${id}::uuid AND m.id = d.merchant_id AND ${claimable(now, sqlText('d.'))}
      RETURNING ${withSecrets(now)}`);
    return rows.length > 0 ? claimedDelivery(rows[0]) : null;
  }

  /**
   * Takes up to `limit` deliveries for an attempt each, oldest due first, in one statement: those
   * due now and those whose worker died (lease lapsed), skipping any another dispatcher is taking
   * at the same moment, each with the secrets to sign it with. Also says when the next scheduled
   * retry falls due (null: none), so the dispatcher can sleep until then. Reads
   * webhook_deliveries_due_idx.
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDeliveries> {
    const rows = await this.db.query<ClaimedRow & { id: string | null; upcoming_at: Date | null }>(sql`
      WITH due AS (
        SELECT id FROM webhook_deliveries WHERE ${claimable(now, sqlText(''))}
         ORDER BY next_attempt_at NULLS FIRST LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE webhook_deliveries d SET ${claiming(now, leaseMs)}
          FROM due, merchants m
         WHERE d.id = due.id AND m.id = d.merchant_id
        RETURNING ${withSecrets(now)}),
      upcoming AS (SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > ${now})
      SELECT claimed.*, upcoming.at AS upcoming_at FROM upcoming LEFT JOIN claimed ON true`);
    return {
      claimed: rows.filter((r) => r.id !== null).map(({ upcoming_at: _at, ...r }) => claimedDelivery(r)),
      nextDueAt: rows[0]?.upcoming_at ?? null,
    };
  }

  /**
   * Records the attempt and the delivery's new state in one statement (so in one transaction),
   * together with the attempts other deliveries are recording at the same moment; resolves once
   * committed. The (delivery, attempt number) key is unique: an attempt is never recorded twice.
   */
  recordAttempt(delivery: WebhookDelivery, attempt: AttemptRecord): Promise<void> {
    return this.attempts.add(recorded(delivery, attempt));
  }

  private async writeAttempt(a: RecordedAttempt): Promise<void> {
    await this.db.execute(sql`
      WITH attempt AS (
        INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, latency_ms, status_code, error, response_body, outcome, next_attempt_at)
        VALUES (${a.deliveryId}::uuid, ${a.attemptNo}, ${a.startedAt}, ${a.latencyMs}, ${a.statusCode}, ${a.error},
                ${a.responseBody}, ${a.outcome}, ${a.nextAttemptAt})
      )
      UPDATE webhook_deliveries
         SET status = ${a.status}, next_attempt_at = ${a.nextAttemptAt}, lease_until = NULL, last_attempt_at = ${a.startedAt},
             last_status_code = ${a.statusCode}, last_error = ${a.error}, delivered_at = COALESCE(${a.deliveredAt}, delivered_at), updated_at = ${a.updatedAt}
       WHERE id = ${a.deliveryId}::uuid`);
  }

  /** The same for many deliveries: one multi-row statement (arrays unnested in step). */
  private async writeAttempts(items: RecordedAttempt[]): Promise<void> {
    const rows = [...items].sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : 1)); // the same lock order everywhere
    const col = <K extends keyof RecordedAttempt>(k: K) => rows.map((r) => r[k]);
    await this.db.execute(sql`
      WITH input AS (
        SELECT * FROM unnest(${col('deliveryId')}::uuid[], ${col('attemptNo')}::int[], ${col('startedAt')}::timestamptz[], ${col('latencyMs')}::int[],
                             ${col('statusCode')}::int[], ${col('error')}::text[], ${col('responseBody')}::text[], ${col('outcome')}::text[],
                             ${col('nextAttemptAt')}::timestamptz[], ${col('status')}::text[], ${col('deliveredAt')}::timestamptz[], ${col('updatedAt')}::timestamptz[])
          AS t(delivery_id, attempt_no, started_at, latency_ms, status_code, error, response_body, outcome, next_attempt_at, status, delivered_at, updated_at)
      ), attempt AS (
        INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, latency_ms, status_code, error, response_body, outcome, next_attempt_at)
        SELECT delivery_id, attempt_no, started_at, latency_ms, status_code, error, response_body, outcome, next_attempt_at FROM input
      )
      UPDATE webhook_deliveries d
         SET status = i.status, next_attempt_at = i.next_attempt_at, lease_until = NULL, last_attempt_at = i.started_at,
             last_status_code = i.status_code, last_error = i.error, delivered_at = COALESCE(i.delivered_at, d.delivered_at), updated_at = i.updated_at
        FROM input i
       WHERE d.id = i.delivery_id`);
  }

  /**
   * Sends a delivery again from the start of the retry schedule, keeping its event id and body.
   * Refused while an attempt is in progress. `db`: a caller's transaction, the pool otherwise.
   */
  async resend(id: string, now: Date, db: SqlClient = this.db): Promise<WebhookDelivery | null> {
    return this.one(
      sql`
      UPDATE webhook_deliveries
         SET status = 'pending', next_attempt_at = ${now}, cycle_attempts = 0, resend_count = resend_count + 1, lease_until = NULL, updated_at = ${now}
       WHERE id = ${id}::uuid AND status <> 'delivering'
      RETURNING *`,
      db,
    );
  }

  /** Failed or dead-lettered deliveries of a merchant created at or after `since`. */
  async failedSince(merchantId: number, since: Date): Promise<WebhookDelivery[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT * FROM webhook_deliveries
       WHERE merchant_id = ${merchantId} AND status IN ('failed', 'dead') AND created_at >= ${since}
       ORDER BY created_at`);
    return rows.map((r) => fromRow<WebhookDelivery>(r));
  }

  /** Recent deliveries, newest first, without their bodies (operators' list); `limit` 1 to 500 (default 100). */
  async recent(
    filter: { merchantId?: number; status?: DeliveryStatus; limit?: number } = {},
  ): Promise<Omit<WebhookDelivery, 'body'>[]> {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT id, event_id, event_type, merchant_id, disbursement_id, payin_id, url, status, attempt_count, cycle_attempts, resend_count,
             next_attempt_at, lease_until, last_attempt_at, last_status_code, last_error, delivered_at, log_id, created_at, updated_at
        FROM webhook_deliveries
       WHERE (${filter.merchantId ?? null}::int IS NULL OR merchant_id = ${filter.merchantId ?? null}::int)
         AND (${filter.status ?? null}::text IS NULL OR status = ${filter.status ?? null}::text)
       ORDER BY created_at DESC, id LIMIT ${limit}`);
    return rows.map((r) => fromRow<Omit<WebhookDelivery, 'body'>>(r));
  }

  async findWithAttempts(idOrEventId: string): Promise<(WebhookDelivery & { attempts: WebhookAttempt[] }) | null> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrEventId);
    const d = await this.one(
      isUuid
        ? sql`SELECT * FROM webhook_deliveries WHERE id = ${idOrEventId}::uuid OR event_id = ${idOrEventId} ORDER BY id LIMIT 1`
        : sql`SELECT * FROM webhook_deliveries WHERE event_id = ${idOrEventId}`,
    );
    if (!d) return null;
    const attempts = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM webhook_attempts WHERE delivery_id = ${d.id}::uuid ORDER BY attempt_no`,
    );
    return { ...d, attempts: attempts.map((r) => fromRow<WebhookAttempt>(r)) };
  }

  /** The secrets to sign with now: the current one, and the previous one while its grace period lasts. */
  async signingSecrets(merchantId: number, now: Date): Promise<string[]> {
    const [m] = await this.db.query<{ current: string; previous: string | null; previousExpiresAt: Date | null }>(sql`
      SELECT webhook_secret AS current, webhook_secret_previous AS previous, webhook_secret_previous_expires_at AS "previousExpiresAt"
        FROM merchants WHERE id = ${merchantId}`);
    if (!m) throw new Error(`merchant ${merchantId} not found`);
    const previousValid = m.previous && m.previousExpiresAt && m.previousExpiresAt > now;
    return previousValid ? [m.current, m.previous as string] : [m.current];
  }

  private async one(q: SqlQuery, db: SqlClient = this.db): Promise<WebhookDelivery | null> {
    const [row] = await db.query<Record<string, unknown>>(q);
    return row ? fromRow<WebhookDelivery>(row) : null;
  }
}
