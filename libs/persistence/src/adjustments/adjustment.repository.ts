import { type AdjustBooksCommand, ledgerCommandId, PLATFORM_MERCHANT_ID, type PostingLine } from '@pay/contracts';
import { sql, type SqlClient } from '../client/sql';
import { ledgerCommandMessage, writeOutbox } from '../outbox/outbox-writer';

export type AdjustmentStatus = 'requested' | 'approved' | 'rejected' | 'expired';

/** What the ledger made of an approved adjustment's books.adjust: not yet read (pending), booked, or refused and why. */
export interface AdjustmentLedgerOutcome {
  outcome: 'pending' | 'applied' | 'rejected';
  /** The ledger's rejection reason (INSUFFICIENT_BALANCE, ENTRY_INVALID, ...) */
  reason: string | null;
  decidedAt: Date | null;
}

export interface Adjustment {
  id: string;
  /** null: the platform's own accounts only */
  merchantId: number | null;
  postings: PostingLine[];
  reason: string;
  /** A request past its expiry reads expired even before anyone tried to decide it */
  status: AdjustmentStatus;
  requestedBy: string;
  /** The requester's email when an operator of the console asked; else requestedBy */
  requestedByName: string;
  requestedAt: Date;
  expiresAt: Date;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  /** null until approved */
  ledger: AdjustmentLedgerOutcome | null;
}

export interface NewAdjustment {
  id: string;
  merchantId: number | null;
  postings: PostingLine[];
  reason: string;
  requestedBy: string;
  requestedAt: Date;
  expiresAt: Date;
}

/** What a decision found: done, or why not (the caller turns each into its refusal). */
export type AdjustmentDecisionOutcome =
  | { kind: 'decided'; adjustment: Adjustment }
  | { kind: 'not_found' }
  | { kind: 'own_request' }
  | { kind: 'not_requested'; status: AdjustmentStatus }
  | { kind: 'expired' };

interface AdjustmentRow {
  id: string;
  merchant_id: number | null;
  postings: PostingLine[];
  reason: string;
  status: AdjustmentStatus;
  requested_by: string;
  requested_by_name: string | null;
  requested_at: Date;
  expires_at: Date;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_note: string | null;
}

/** An operator's actor as adjustments name it (`operator:<dashboard user id>`) joins to that user's email. */
const SELECT = sql`
  SELECT a.id::text, a.merchant_id, a.postings, a.reason,
         CASE WHEN a.status = 'requested' AND a.expires_at <= now() THEN 'expired' ELSE a.status END AS status,
         a.requested_by, ru.email AS requested_by_name, a.requested_at, a.expires_at,
         a.decided_by, du.email AS decided_by_name, a.decided_at, a.decision_note
    FROM adjustments a
    LEFT JOIN dashboard_users ru ON a.requested_by = 'operator:' || ru.id
    LEFT JOIN dashboard_users du ON a.decided_by = 'operator:' || du.id`;

/**
 * The adjustments table (maker-checker over the ledger's books.adjust): requests, decisions, and
 * each approved one's outcome from ledger_commands. Plain SQL on the caller's client (a
 * transaction's, for the writes).
 */
export async function insertAdjustment(db: SqlClient, a: NewAdjustment): Promise<void> {
  await db.execute(sql`
    INSERT INTO adjustments (id, merchant_id, postings, reason, status, requested_by, requested_at, expires_at)
    VALUES (${a.id}::uuid, ${a.merchantId}::int, ${JSON.stringify(a.postings)}::jsonb, ${a.reason}, 'requested',
            ${a.requestedBy}, ${a.requestedAt}::timestamptz, ${a.expiresAt}::timestamptz)`);
}

export async function findAdjustment(db: SqlClient, id: string): Promise<Adjustment | null> {
  const rows = await db.query<AdjustmentRow>(sql`${SELECT} WHERE a.id = ${id}::uuid`);
  return (await withLedgerOutcomes(db, rows))[0] ?? null;
}

/** Newest first; `status` filters on the status as shown (a request past its expiry is expired). */
export async function listAdjustments(
  db: SqlClient,
  filter: { status?: AdjustmentStatus; merchantId?: number; limit: number },
): Promise<Adjustment[]> {
  const status = filter.status ?? null;
  const rows = await db.query<AdjustmentRow>(sql`${SELECT}
     WHERE (${filter.merchantId ?? null}::int IS NULL OR a.merchant_id = ${filter.merchantId ?? null}::int)
       AND (${status}::text IS NULL
            OR CASE WHEN a.status = 'requested' AND a.expires_at <= now() THEN 'expired' ELSE a.status END = ${status}::text)
     ORDER BY a.requested_at DESC, a.id DESC LIMIT ${filter.limit}`);
  return withLedgerOutcomes(db, rows);
}

/**
 * Approves (writing the ledger's books.adjust to the outbox) or rejects a request, on the
 * caller's transaction. Only a request still `requested`, unexpired, and only by someone other
 * than its requester (the table's CHECK says so too); two deciders at once: the row's lock makes
 * the second find it decided. A request found past its expiry is marked expired (written with
 * the caller's transaction: the caller commits it and then refuses).
 */
export async function decideAdjustment(
  tx: SqlClient,
  d: { id: string; decision: 'approved' | 'rejected'; by: string; note: string | null; at: Date; logId?: string },
): Promise<AdjustmentDecisionOutcome> {
  const [row] = await tx.query<{ id: string } & Record<string, unknown>>(sql`
    UPDATE adjustments SET status = ${d.decision}, decided_by = ${d.by}, decided_at = ${d.at}::timestamptz, decision_note = ${d.note}
     WHERE id = ${d.id}::uuid AND status = 'requested' AND expires_at > ${d.at}::timestamptz AND requested_by <> ${d.by}
    RETURNING id::text`);
  if (!row) {
    const [found] = await tx.query<{ status: AdjustmentStatus; requested_by: string; expires_at: Date }>(sql`
      SELECT status, requested_by, expires_at FROM adjustments WHERE id = ${d.id}::uuid FOR UPDATE`);
    if (!found) return { kind: 'not_found' };
    if (found.status !== 'requested') return { kind: 'not_requested', status: found.status };
    if (found.requested_by === d.by) return { kind: 'own_request' };
    await tx.execute(sql`UPDATE adjustments SET status = 'expired' WHERE id = ${d.id}::uuid AND status = 'requested'`);
    return { kind: 'expired' };
  }
  const adjustment = (await findAdjustment(tx, d.id)) as Adjustment;
  if (d.decision === 'approved') await writeOutbox(tx, ledgerCommandMessage(adjustCommand(adjustment, d)));
  return { kind: 'decided', adjustment };
}

function adjustCommand(a: Adjustment, d: { by: string; at: Date; logId?: string }): AdjustBooksCommand {
  return {
    type: 'books.adjust',
    commandId: ledgerCommandId.booksAdjust(a.id),
    merchantId: a.merchantId ?? PLATFORM_MERCHANT_ID,
    logId: d.logId,
    issuedAt: d.at.toISOString(),
    adjustmentId: a.id,
    postings: a.postings,
    reason: a.reason,
    requestedBy: a.requestedBy,
    approvedBy: d.by,
  };
}

async function withLedgerOutcomes(db: SqlClient, rows: AdjustmentRow[]): Promise<Adjustment[]> {
  const approved = rows.filter((r) => r.status === 'approved').map((r) => ledgerCommandId.booksAdjust(r.id));
  const decisions = approved.length
    ? await db.query<{ command_id: string; outcome: string; reason: string | null; decided_at: Date }>(sql`
        SELECT command_id, outcome, reason, decided_at FROM ledger_commands WHERE command_id = ANY(${approved}::text[])`)
    : [];
  const byCommand = new Map(decisions.map((c) => [c.command_id, c]));
  return rows.map((r) => {
    const c = byCommand.get(ledgerCommandId.booksAdjust(r.id));
    return {
      id: r.id,
      merchantId: r.merchant_id,
      postings: r.postings,
      reason: r.reason,
      status: r.status,
      requestedBy: r.requested_by,
      requestedByName: r.requested_by_name ?? r.requested_by,
      requestedAt: r.requested_at,
      expiresAt: r.expires_at,
      decidedBy: r.decided_by,
      decidedByName: r.decided_by === null ? null : (r.decided_by_name ?? r.decided_by),
      decidedAt: r.decided_at,
      decisionNote: r.decision_note,
      ledger:
        r.status !== 'approved'
          ? null
          : c
            ? { outcome: c.outcome === 'applied' ? 'applied' : 'rejected', reason: c.reason, decidedAt: c.decided_at }
            : { outcome: 'pending', reason: null, decidedAt: null },
    };
  });
}
