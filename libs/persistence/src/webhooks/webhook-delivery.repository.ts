import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { GroupWriter } from '../client/group-writer';
import { fromRow } from '../client/rows';
import { inTransaction, sql, sqlClient, type SqlClient, type SqlQuery, sqlText } from '../client/sql';
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
  /** Due deliveries were left (the limit, or their merchants' caps): a freed slot should ask again. */
  waiting: boolean;
}

type ClaimedRow = Record<string, unknown> & {
  secret_current: string;
  secret_previous: string | null;
  unrecorded_claims: number;
};

/** The advisory lock the dispatchers' claims take in turn (class, key), so each sees the leases of the one before. */
const CLAIM_LOCK: readonly [number, number] = [0x77686b, 1];

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

  constructor(private readonly pool: Pool) {
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
   * A sandbox clock's claim (apps/workers sandbox-clock.runner): the delivery if it is pending and
   * due by the clock's time `dueBy`, leased in real time (`now` + leaseMs) as any attempt. Never
   * one another worker is delivering (its lease is real time, whatever the clock reads).
   */
  async claimDueBy(id: string, dueBy: Date, now: Date, leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = await this.db.query<ClaimedRow>(sql`
      UPDATE webhook_deliveries d SET ${claiming(now, leaseMs)}
        FROM merchants m
       WHERE d.id = ${id}::uuid AND m.id = d.merchant_id AND d.status = 'pending' AND d.next_attempt_at <= ${dueBy}
      RETURNING ${withSecrets(now)}`);
    return rows.length > 0 ? claimedDelivery(rows[0]) : null;
  }

  /**
   * Takes up to `limit` deliveries for an attempt each, shared fairly between merchants: a
   * merchant never has more than `perMerchant` attempts leased at once (counted across every
   * workers process: the claims take an advisory lock in turn, so each sees the leases of the one
   * before), and the slots go round the merchants, the fewest in flight first, each merchant's
   * oldest due first (with none in flight anywhere, every merchant's oldest before anyone's
   * second). Due: pending and next_attempt_at reached, or left `delivering` by a worker that died
   * (lease lapsed). A merchant over its cap loses nothing: its deliveries wait, due, for a slot.
   * Each comes with the secrets to sign it with. Also says when the next scheduled retry falls due
   * (null: none) and whether due deliveries were left. Reads webhook_deliveries_merchant_due_idx
   * (one probe per merchant with unfinished deliveries) and webhook_deliveries_due_idx.
   */
  async claimDue(now: Date, limit: number, leaseMs: number, perMerchant: number): Promise<ClaimedDeliveries> {
    const rows = await inTransaction(
      this.pool,
      (tx) =>
        tx.query<ClaimedRow & { id: string | null; upcoming_at: Date | null; due_count: number }>(sql`
      WITH RECURSIVE merchants_waiting (merchant_id, first_at) AS (
          (SELECT merchant_id, next_attempt_at FROM webhook_deliveries WHERE status IN ('pending', 'delivering')
            ORDER BY merchant_id, next_attempt_at LIMIT 1)
        UNION ALL
          SELECT w.merchant_id, w.next_attempt_at FROM merchants_waiting mw CROSS JOIN LATERAL (
            SELECT merchant_id, next_attempt_at FROM webhook_deliveries
             WHERE status IN ('pending', 'delivering') AND merchant_id > mw.merchant_id
             ORDER BY merchant_id, next_attempt_at LIMIT 1) w
      ),
      candidates AS (
        SELECT c.id, c.next_attempt_at, busy.n + c.turn AS share
          FROM merchants_waiting mw
          CROSS JOIN LATERAL (
            SELECT count(*)::int AS n FROM webhook_deliveries f
             WHERE f.merchant_id = mw.merchant_id AND f.status = 'delivering' AND f.lease_until >= ${now}) busy
          CROSS JOIN LATERAL (
            SELECT d.id, d.next_attempt_at, row_number() OVER (ORDER BY d.next_attempt_at) AS turn
              FROM webhook_deliveries d
             WHERE d.merchant_id = mw.merchant_id AND d.status IN ('pending', 'delivering')
               AND d.next_attempt_at <= ${now} AND ${claimable(now, sqlText('d.'))}
             ORDER BY d.next_attempt_at
             LIMIT greatest(${perMerchant}::int - busy.n, 0)) c
         -- A delivering row keeps the next_attempt_at it was claimed at (never in the future): a
         -- merchant whose first unfinished delivery is not due yet has none due and none in flight.
         WHERE mw.first_at <= ${now}
      ),
      due AS (
        SELECT d.id FROM webhook_deliveries d
          JOIN (SELECT id FROM candidates ORDER BY share, next_attempt_at LIMIT ${limit}) picked ON picked.id = d.id
         WHERE ${claimable(now, sqlText('d.'))}
           FOR UPDATE OF d SKIP LOCKED),
      claimed AS (
        UPDATE webhook_deliveries d SET ${claiming(now, leaseMs)}
          FROM due, merchants m
         WHERE d.id = due.id AND m.id = d.merchant_id
        RETURNING ${withSecrets(now)}),
      upcoming AS (SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > ${now}),
      -- Due in this statement's snapshot (the claimed ones included), counted up to one more than the limit.
      due_now AS (SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries WHERE ${claimable(now, sqlText(''))} LIMIT ${limit + 1}) x)
      SELECT claimed.*, upcoming.at AS upcoming_at, due_now.n AS due_count FROM upcoming CROSS JOIN due_now LEFT JOIN claimed ON true`),
      { advisoryLock: CLAIM_LOCK },
    );
    const claimed = rows
      .filter((r) => r.id !== null)
      .map(({ upcoming_at: _at, due_count: _due, ...r }) => claimedDelivery(r));
    return { claimed, nextDueAt: rows[0]?.upcoming_at ?? null, waiting: (rows[0]?.due_count ?? 0) > claimed.length };
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
