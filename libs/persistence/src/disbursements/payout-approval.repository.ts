import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, sqlClient, type SqlClient, sqlText } from '../client/sql';
import type { Disbursement, DisbursementBatch } from '../generated/prisma/client';
import { DISBURSEMENT_DECIDED_CHANNEL } from './disbursement.repository';

/** A merchant's approval settings (docs/payout-approvals.md). */
export interface PayoutApprovalSettings {
  /** Payouts above this (sen) wait for approval; null: none do */
  threshold: bigint | null;
  /** How long one waits before it expires, in seconds */
  ttlSeconds: number;
  /** Every batch waits for approval */
  batches: boolean;
}

/** The bounds of `ttlSeconds`: 10 minutes to 7 days (the database holds them too). */
export const APPROVAL_TTL_BOUNDS = { min: 600, max: 604_800 } as const;

/** A batch's rows are decided with their batch (decideBatch), never one by one; `d` is the disbursement. */
const NOT_A_BATCH_ROW = sqlText(
  `NOT EXISTS (SELECT 1 FROM disbursement_batch_rows br WHERE br.disbursement_id = d.id)`,
);

type SettingsRow = { threshold: bigint | null; ttl: number; batches: boolean };
const SETTINGS = sqlText(
  `payout_approval_threshold AS threshold, approval_ttl_seconds AS ttl, batch_approval_required AS batches`,
);
const settingsOf = (r: SettingsRow): PayoutApprovalSettings => ({
  threshold: r.threshold,
  ttlSeconds: r.ttl,
  batches: r.batches,
});

/** A batch awaiting approval, with what its accepted rows add up to. */
export type BatchAwaitingApproval = DisbursementBatch & { acceptedAmount: bigint };

/** What a decision on a batch did (as a payout's), and how many of its rows' payouts it released or rejected. */
export type BatchApprovalVerdict =
  | { kind: 'decided'; batch: DisbursementBatch; payouts: number }
  | { kind: 'notFound' | 'ownPayout' | 'notAwaiting'; batch: DisbursementBatch | null };

/** An approver's decision: approved (sent as any payout) or rejected (failed unsent, refunded). */
export type ApprovalDecision = 'approved' | 'rejected';

/**
 * What a decision did: `decided` (this call decided it); `notFound` (no such payout of the
 * merchant); `ownPayout` (the decider created it: a creator never decides its own); `notAwaiting`
 * (already decided, expired, or not held for approval: the first decision stands).
 */
export type ApprovalVerdict =
  | { kind: 'decided'; disbursement: Disbursement }
  | { kind: 'notFound' | 'ownPayout' | 'notAwaiting'; disbursement: Disbursement | null };

/**
 * Approval before money leaves (issue 44 part 2). A held payout is a debited disbursement
 * (`pending`) whose `approval` is `awaiting`: the payout service leaves it alone until its
 * `next_check_at`, which the ledger set to its expiry. A decision is one conditional update
 * (`awaiting` -> `approved` | `rejected`), so of two concurrent decisions one wins and the
 * other finds it decided; it makes the payout due now and wakes the payout service, which sends
 * an approved one and fails a rejected one unsent (the ledger's refund, once, and the callback).
 * An expiry is the payout service's own claim of a held payout that fell due (PayoutRepository).
 */
export class PayoutApprovalRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  async settings(merchantId: number): Promise<PayoutApprovalSettings | null> {
    const [row] = await this.db.query<SettingsRow>(sql`
      SELECT ${SETTINGS} FROM merchants WHERE id = ${merchantId}::int`);
    return row ? settingsOf(row) : null;
  }

  /** Sets both; applies to payouts recorded from now on (one held already keeps its expiry). Null: no such merchant. */
  async setSettings(merchantId: number, s: PayoutApprovalSettings): Promise<PayoutApprovalSettings | null> {
    const [row] = await this.db.query<SettingsRow>(sql`
      UPDATE merchants SET payout_approval_threshold = ${s.threshold}::bigint, approval_ttl_seconds = ${s.ttlSeconds}::int,
                           batch_approval_required = ${s.batches}::boolean, updated_at = now()
       WHERE id = ${merchantId}::int
      RETURNING ${SETTINGS}`);
    return row ? settingsOf(row) : null;
  }

  /** The merchant's payouts awaiting approval (debited, not expired), oldest first, at most `limit`. */
  async awaiting(merchantId: number, limit = 500): Promise<Disbursement[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT * FROM disbursements d
       WHERE approval = 'awaiting' AND merchant_id = ${merchantId}::int AND status = 'pending' AND approval_expires_at > now()
         AND ${NOT_A_BATCH_ROW}
       ORDER BY approval_expires_at, id
       LIMIT ${limit}::int`);
    return rows.map((r) => fromRow<Disbursement>(r));
  }

  /**
   * `decidedBy` (user:<id>, token:<id>) approves or rejects the merchant's payout `platformTrxId`,
   * unless it created it. Only a payout still awaiting and not expired is decided; the first
   * decision stands.
   */
  async decide(
    merchantId: number,
    platformTrxId: string,
    decision: ApprovalDecision,
    decidedBy: string,
    note: string | null,
  ): Promise<ApprovalVerdict> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH target AS (
        SELECT * FROM disbursements WHERE merchant_id = ${merchantId}::int AND platform_trx_id = ${platformTrxId}::text AND status <> 'refused' LIMIT 1
      ), decided AS (
        UPDATE disbursements d
           SET approval = ${decision}::text, approval_decided_by = ${decidedBy}::text, approval_decided_at = now(),
               approval_note = ${note}::text, next_check_at = now(), updated_at = now()
          FROM target t
         WHERE d.id = t.id AND d.status = 'pending' AND d.approval = 'awaiting' AND d.approval_expires_at > now()
           AND d.created_by IS DISTINCT FROM ${decidedBy}::text AND ${NOT_A_BATCH_ROW}
        RETURNING d.*
      ), woken AS (
        SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}::text, id::text || ':pending') FROM decided
      )
      SELECT CASE WHEN EXISTS (SELECT 1 FROM decided) THEN 'decided'
                  WHEN NOT EXISTS (SELECT 1 FROM target) THEN 'notFound'
                  WHEN (SELECT created_by FROM target) = ${decidedBy}::text THEN 'ownPayout'
                  ELSE 'notAwaiting' END AS verdict,
             (SELECT count(*) FROM woken) AS woken, r.*
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (SELECT * FROM decided UNION ALL SELECT * FROM target WHERE NOT EXISTS (SELECT 1 FROM decided)) r ON true`);
    const {
      verdict,
      woken: _woken,
      ...row
    } = rows[0] as { verdict: ApprovalVerdict['kind']; woken: unknown } & Record<string, unknown>;
    const disbursement = row.id ? fromRow<Disbursement>(row) : null;
    if (verdict === 'decided') return { kind: 'decided', disbursement: disbursement as Disbursement };
    return { kind: verdict, disbursement };
  }

  /** The merchant's batches awaiting approval (not expired), soonest expiry first. */
  async awaitingBatches(merchantId: number, limit = 200): Promise<BatchAwaitingApproval[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT b.*, (SELECT COALESCE(sum(r.amount), 0)::bigint FROM disbursement_batch_rows r WHERE r.batch_id = b.id AND r.accepted) AS accepted_amount
        FROM disbursement_batches b
       WHERE b.approval = 'awaiting' AND b.merchant_id = ${merchantId}::int AND b.approval_expires_at > now()
       ORDER BY b.approval_expires_at, b.id
       LIMIT ${limit}::int`);
    return rows.map((r) => fromRow<BatchAwaitingApproval>(r));
  }

  /**
   * `decidedBy` approves or rejects the merchant's batch `batchId`, unless it submitted it: the
   * batch first (locked: rows being recorded meanwhile wait, or read the decision), then, in the
   * same transaction and a later snapshot, every payout of its rows still awaiting (released: due
   * now, the payout service woken). Rows not yet recorded take the batch's decision when they are.
   */
  async decideBatch(
    merchantId: number,
    batchId: string,
    decision: ApprovalDecision,
    decidedBy: string,
    note: string | null,
  ): Promise<BatchApprovalVerdict> {
    return inTransaction(this.pool, async (tx) => {
      const [found] = await tx.query<Record<string, unknown>>(sql`
        SELECT * FROM disbursement_batches WHERE merchant_id = ${merchantId}::int AND batch_id = ${batchId}::text FOR UPDATE`);
      if (!found) return { kind: 'notFound', batch: null };
      const batch = fromRow<DisbursementBatch>(found);
      if (batch.approval !== 'awaiting' || (batch.approvalExpiresAt as Date).getTime() <= Date.now())
        return { kind: 'notAwaiting', batch };
      if (batch.createdBy === decidedBy) return { kind: 'ownPayout', batch };
      const [decided] = await tx.query<Record<string, unknown>>(sql`
        UPDATE disbursement_batches SET approval = ${decision}::text, approval_decided_by = ${decidedBy}::text,
               approval_decided_at = now(), approval_note = ${note}::text
         WHERE id = ${batch.id}::uuid AND approval = 'awaiting' AND approval_expires_at > now()
        RETURNING *`);
      if (!decided) return { kind: 'notAwaiting', batch };
      const released = await tx.query<{ id: string }>(sql`
        WITH released AS (
          UPDATE disbursements d
             SET approval = ${decision}::text, approval_decided_by = ${decidedBy}::text, approval_decided_at = now(),
                 approval_note = ${note}::text, next_check_at = now(), updated_at = now()
            FROM disbursement_batch_rows r
           WHERE r.batch_id = ${batch.id}::uuid AND d.id = r.disbursement_id AND d.approval = 'awaiting'
          RETURNING d.id)
        SELECT id::text FROM released`);
      if (released.length > 0)
        await tx.execute(
          sql`SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}::text, ${`${released[0].id}:pending`}::text)`,
        );
      return { kind: 'decided', batch: fromRow<DisbursementBatch>(decided), payouts: released.length };
    });
  }
}
