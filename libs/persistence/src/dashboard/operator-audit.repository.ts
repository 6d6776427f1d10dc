import type { Pool } from 'pg';
import { inTransaction, sql, sqlClient, type SqlClient } from '../client/sql';

/** One operator action, as the console writes it (decision 0023). */
export interface NewOperatorAuditEntry {
  operatorUserId: number;
  /** What was done, e.g. 'merchant.deactivate' */
  action: string;
  /** What it was done to, e.g. 'merchant:7' */
  target: string;
  /** The input, without secrets */
  details: Record<string, unknown>;
  /** The request's logId (a UUID) */
  logId: string;
}

export interface OperatorAuditEntry {
  id: string;
  operatorUserId: number;
  action: string;
  target: string;
  details: Record<string, unknown>;
  logId: string | null;
  at: Date;
}

/** A listed entry also names the operator by email (dashboard_users). */
export interface OperatorAuditListEntry extends OperatorAuditEntry {
  operatorEmail: string;
}

export interface OperatorAuditPage {
  entries: OperatorAuditListEntry[];
  /** Pass as `before` for the next (older) page; null on the last page */
  nextBefore: string | null;
}

interface AuditRow {
  id: bigint;
  operator_user_id: bigint;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
  log_id: string | null;
  at: Date;
}

const MAX_LIMIT = 200;

const listEntryOf = (r: AuditRow & { operator_email: string }): OperatorAuditListEntry => ({ ...entryOf(r), operatorEmail: r.operator_email });

const entryOf = (r: AuditRow): OperatorAuditEntry => ({
  id: r.id.toString(),
  operatorUserId: Number(r.operator_user_id),
  action: r.action,
  target: r.target,
  details: r.details ?? {},
  logId: r.log_id,
  at: r.at,
});

/**
 * operator_audit_log (the table of the dashboard users' migration): one row per console action
 * that changed something. Append-only; read newest first, paged by id (`before`).
 */
export class OperatorAuditRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Runs `change` in a transaction and records the entry `entryFor` makes of its result in the
   * same one; `entryFor` returns null for a refusal (nothing changed, nothing recorded).
   */
  async withChange<T>(change: (tx: SqlClient) => Promise<T>, entryFor: (result: T) => NewOperatorAuditEntry | null): Promise<T> {
    return inTransaction(this.pool, async (tx) => {
      const result = await change(tx);
      const entry = entryFor(result);
      if (entry) await this.record(entry, tx);
      return result;
    });
  }

  /** `db`: a transaction's client to write the row with the change, the pool otherwise. */
  async record(entry: NewOperatorAuditEntry, db: SqlClient = this.db): Promise<OperatorAuditEntry> {
    const [row] = await db.query<AuditRow>(sql`
      INSERT INTO operator_audit_log (operator_user_id, action, target, details, log_id)
      VALUES (${entry.operatorUserId}, ${entry.action}, ${entry.target}, ${JSON.stringify(entry.details)}::jsonb, ${entry.logId}::uuid)
      RETURNING id, operator_user_id, action, target, details, log_id::text, at`);
    return entryOf(row);
  }

  /** Newest first; `before` (an id) continues an earlier page; `limit` 1 to 200 (default 50). */
  async list(filter: { before?: bigint; limit?: number; operatorUserId?: number; target?: string } = {}): Promise<OperatorAuditPage> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), MAX_LIMIT);
    // operator_user_id is a foreign key to dashboard_users: every entry has its operator.
    const rows = await this.db.query<AuditRow & { operator_email: string }>(sql`
      SELECT a.id, a.operator_user_id, u.email AS operator_email, a.action, a.target, a.details, a.log_id::text, a.at
        FROM operator_audit_log a JOIN dashboard_users u ON u.id = a.operator_user_id
       WHERE (${filter.before ?? null}::bigint IS NULL OR a.id < ${filter.before ?? null}::bigint)
         AND (${filter.operatorUserId ?? null}::bigint IS NULL OR a.operator_user_id = ${filter.operatorUserId ?? null}::bigint)
         AND (${filter.target ?? null}::text IS NULL OR a.target = ${filter.target ?? null}::text)
       ORDER BY a.id DESC LIMIT ${limit + 1}`);
    const entries = rows.slice(0, limit).map(listEntryOf);
    return { entries, nextBefore: rows.length > limit ? entries[entries.length - 1].id : null };
  }
}
