import type { Pool } from 'pg';
import { inTransaction, sql, sqlClient, type SqlClient } from '../client/sql';

/**
 * One action of a dashboard user, as the console and the merchant dashboard write it (decision
 * 0023): an operator's (merchantId null) or a merchant user's (its merchant).
 */
export interface NewAuditEntry {
  /** The acting dashboard user (an operator or a merchant user); null for the ops API or the CLI (then `actor`) */
  operatorUserId: number | null;
  /** Who acted when no dashboard user did: `ops-api` (the admin token) or `cli:<os user>@<host>` */
  actor?: string;
  /** The merchant user's merchant; null or absent for an operator */
  merchantId?: number | null;
  /** What was done, e.g. 'merchant.deactivate' */
  action: string;
  /** What it was done to, e.g. 'merchant:7' */
  target: string;
  /** The input, without secrets */
  details: Record<string, unknown>;
  /** The request's logId (a UUID) */
  logId: string;
}

export interface AuditEntry {
  id: string;
  operatorUserId: number | null;
  actor: string | null;
  merchantId: number | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  logId: string | null;
  at: Date;
}

/** A listed entry also names who acted: its user's email (dashboard_users), or the actor (ops API, CLI). */
export interface AuditListEntry extends AuditEntry {
  operatorEmail: string;
}

export interface AuditPage {
  entries: AuditListEntry[];
  /** Pass as `before` for the next (older) page; null on the last page */
  nextBefore: string | null;
}

interface AuditRow {
  id: bigint;
  operator_user_id: bigint | null;
  actor: string | null;
  merchant_id: number | null;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
  log_id: string | null;
  at: Date;
}

const MAX_LIMIT = 200;

const listEntryOf = (r: AuditRow & { operator_email: string }): AuditListEntry => ({
  ...entryOf(r),
  operatorEmail: r.operator_email,
});

const entryOf = (r: AuditRow): AuditEntry => ({
  id: r.id.toString(),
  operatorUserId: r.operator_user_id === null ? null : Number(r.operator_user_id),
  actor: r.actor,
  merchantId: r.merchant_id,
  action: r.action,
  target: r.target,
  details: r.details ?? {},
  logId: r.log_id,
  at: r.at,
});

/**
 * operator_audit_log (the table of the dashboard users' migration, with merchant_id since the
 * activity migration): one row per console or merchant dashboard action that changed something,
 * and merchant users' sign-ins and sign-outs. Operators' rows have no merchant_id: the console's
 * audit log lists only those; a merchant's activity log lists only its own. Append-only; read
 * newest first, paged by id (`before`).
 */
export class AuditLogRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Runs `change` in a transaction and records the entry `entryFor` makes of its result in the
   * same one; `entryFor` returns null for a refusal (nothing changed, nothing recorded).
   */
  async withChange<T>(
    change: (tx: SqlClient) => Promise<T>,
    entryFor: (result: T) => NewAuditEntry | null,
  ): Promise<T> {
    return inTransaction(this.pool, async (tx) => {
      const result = await change(tx);
      const entry = entryFor(result);
      if (entry) await this.record(entry, tx);
      return result;
    });
  }

  /** `db`: a transaction's client to write the row with the change, the pool otherwise. */
  async record(entry: NewAuditEntry, db: SqlClient = this.db): Promise<AuditEntry> {
    const [row] = await db.query<AuditRow>(sql`
      INSERT INTO operator_audit_log (operator_user_id, actor, merchant_id, action, target, details, log_id)
      VALUES (${entry.operatorUserId}::bigint, ${entry.actor ?? null}::text, ${entry.merchantId ?? null}::int, ${entry.action}, ${entry.target}, ${JSON.stringify(entry.details)}::jsonb, ${entry.logId}::uuid)
      RETURNING id, operator_user_id, actor, merchant_id, action, target, details, log_id::text, at`);
    return entryOf(row);
  }

  /** Operators' entries only (no merchant user's), newest first; `before` (an id) continues an earlier page; `limit` 1 to 200 (default 50). */
  async list(
    filter: { before?: bigint; limit?: number; operatorUserId?: number; target?: string } = {},
  ): Promise<AuditPage> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), MAX_LIMIT);
    // An entry has its operator (a foreign key to dashboard_users) or, made through the ops API or the CLI, its actor.
    const rows = await this.db.query<AuditRow & { operator_email: string }>(sql`
      SELECT a.id, a.operator_user_id, a.actor, a.merchant_id, coalesce(u.email, a.actor) AS operator_email, a.action, a.target, a.details, a.log_id::text, a.at
        FROM operator_audit_log a LEFT JOIN dashboard_users u ON u.id = a.operator_user_id
       WHERE a.merchant_id IS NULL
         AND (${filter.before ?? null}::bigint IS NULL OR a.id < ${filter.before ?? null}::bigint)
         AND (${filter.operatorUserId ?? null}::bigint IS NULL OR a.operator_user_id = ${filter.operatorUserId ?? null}::bigint)
         AND (${filter.target ?? null}::text IS NULL OR a.target = ${filter.target ?? null}::text)
       ORDER BY a.id DESC LIMIT ${limit + 1}`);
    return pageOf(rows, limit);
  }

  /**
   * One merchant's activity (its dashboard users' entries), newest first: only rows of that
   * merchant, whoever asks (tenant isolation is this WHERE). Same paging as `list`.
   */
  async listForMerchant(merchantId: number, filter: { before?: bigint; limit?: number } = {}): Promise<AuditPage> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), MAX_LIMIT);
    const rows = await this.db.query<AuditRow & { operator_email: string }>(sql`
      SELECT a.id, a.operator_user_id, a.actor, a.merchant_id, coalesce(u.email, a.actor) AS operator_email, a.action, a.target, a.details, a.log_id::text, a.at
        FROM operator_audit_log a LEFT JOIN dashboard_users u ON u.id = a.operator_user_id
       WHERE a.merchant_id = ${merchantId}::int
         AND (${filter.before ?? null}::bigint IS NULL OR a.id < ${filter.before ?? null}::bigint)
       ORDER BY a.merchant_id, a.id DESC LIMIT ${limit + 1}`);
    return pageOf(rows, limit);
  }
}

function pageOf(rows: (AuditRow & { operator_email: string })[], limit: number): AuditPage {
  const entries = rows.slice(0, limit).map(listEntryOf);
  return { entries, nextBefore: rows.length > limit ? entries[entries.length - 1].id : null };
}
