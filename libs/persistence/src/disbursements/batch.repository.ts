import { ledgerCommandId, Topic } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, type SqlClient, sqlClient, sqlText } from '../client/sql';
import type { DisbursementBatch, DisbursementBatchRow } from '../generated/prisma/client';

export type { DisbursementBatch, DisbursementBatchRow };

/** NOTIFYed when a batch with rows to check commits: the payout service's batch loop wakes. */
export const BATCH_ROWS_CHANNEL = 'disbursement_batch_rows';

/** The advisory lock class of a merchant's batch submissions (key: the merchant id): one at a time per merchant. */
const SUBMIT_LOCK_CLASS = 0x62746368;

export interface NewBatch {
  id: string;
  merchantId: number;
  batchId: string;
  requestHash: string;
  notifyUrl: string | null;
  logId: string | null;
  /** Who submits it: token:<id> (merchant API) or user:<id> (dashboard); never its approver */
  createdBy?: string | null;
}

/** A row as the merchant sent it, already validated alone: refused (code, message) or to check. */
export interface NewBatchRow {
  rowNo: number;
  merchantTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string | null;
  /** Null when the row's amount is not one (then it is refused) */
  amount: Minor | null;
  refusal: { code: string; message: string } | null;
}

export type SubmitVerdict =
  { kind: 'created' | 'existing'; batch: DisbursementBatch; rows: DisbursementBatchRow[] } | { kind: 'conflict' };

/** A row and, once submitted, its disbursement's status, fee and failure (the row's own otherwise). */
export type BatchRowView = DisbursementBatchRow & {
  /** The row's status as merchants see it: checking, refused, or its disbursement's (funding shown as pending) */
  currentStatus: 'checking' | 'pending' | 'success' | 'failed' | 'refused' | 'reversed';
  /** The name the bank holds, once the row is a disbursement */
  bankAccountName: string | null;
  platformTrxId: string | null;
  disbursementStatus: string | null;
  fee: Minor | null;
  refusalReason: string | null;
  disbursementFailureCode: string | null;
  disbursementFailureReason: string | null;
};

/** Rows of a batch per final or current status, and the money of the successful ones. */
export interface BatchSummary {
  checking: number;
  pending: number;
  success: number;
  failed: number;
  refused: number;
  reversed: number;
  /** Sum of the amounts of the successful (not reversed) rows */
  successAmount: Minor;
  /** Sum of their fees */
  successFee: Minor;
  /** Sum of the amounts of the rows accepted at submission */
  acceptedAmount: Minor;
}

/** A row claimed for its name check, with what recording its disbursement needs. */
export type ClaimedBatchRow = DisbursementBatchRow & {
  amount: Minor;
  notifyUrl: string | null;
  logId: string | null;
};

/** What a name check decided for a row. */
export type NameCheckOutcome =
  | {
      kind: 'fund';
      row: ClaimedBatchRow;
      disbursementId: string;
      platformTrxId: string;
      /** The name the bank holds */
      accountName: string;
    }
  | { kind: 'refuse'; row: ClaimedBatchRow; code: string; message: string }
  | { kind: 'retry'; row: ClaimedBatchRow; at: Date };

/** A batch whose every row is final, once, with its counts: the caller announces it. */
export type CompletedBatch = DisbursementBatch & { merchantName: string; completedAt: Date; summary: BatchSummary };

/** The sub-select of a batch's rows with their disbursements (`r` the row, `d` its disbursement). */
const ROW_STATUS = sqlText(
  `CASE WHEN r.status = 'submitted' THEN (CASE WHEN d.status = 'funding' THEN 'pending' ELSE d.status END) ELSE r.status END`,
);

/**
 * Batch payouts (issue 44): the gateway records a batch and its rows in one transaction; the
 * payout service checks each accepted row's name with the bank and records it as a disbursement
 * with the ledger's payout.debit (as a single transfer), then announces each batch once all its
 * rows are final. Plain pg, as the other disbursement writes (docs/decisions/0010).
 */
export class BatchRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Records a batch and its rows in one transaction, one submission per merchant at a time (an
   * advisory lock): the same batchId again answers the batch recorded (`existing`) when its
   * request hash is the same, `conflict` otherwise. A row whose merchantTrxId a live disbursement
   * of the merchant, a row of another batch still being checked, or an earlier row of this batch
   * holds is refused DUPLICATE_MERCHANT_TRX_ID here. Rows to check are due at once (NOTIFY).
   */
  async submit(
    batch: NewBatch,
    rows: NewBatchRow[],
    duplicate: { code: string; message: string },
  ): Promise<SubmitVerdict> {
    return inTransaction(
      this.pool,
      async (tx) => {
        const [existing] = await tx.query<Record<string, unknown>>(
          sql`SELECT * FROM disbursement_batches WHERE merchant_id = ${batch.merchantId} AND batch_id = ${batch.batchId}`,
        );
        if (existing) {
          const found = fromRow<DisbursementBatch>(existing);
          if (found.requestHash !== batch.requestHash) return { kind: 'conflict' };
          return { kind: 'existing', batch: found, rows: await this.rowsOf(tx, found.id) };
        }
        const taken = await takenTrxIds(
          tx,
          batch.merchantId,
          rows.filter((r) => !r.refusal).map((r) => r.merchantTrxId),
        );
        const decided = refuseTaken(rows, taken, duplicate);
        const accepted = decided.filter((r) => !r.refusal).length;
        // A merchant that wants every batch approved: held (awaiting) unless nothing was accepted (docs/payout-approvals.md).
        const [created] = await tx.query<Record<string, unknown>>(sql`
          INSERT INTO disbursement_batches (id, merchant_id, batch_id, request_hash, notify_url, row_count, accepted_count, log_id,
                                            created_by, approval, approval_expires_at)
          SELECT ${batch.id}::uuid, ${batch.merchantId}::int, ${batch.batchId}::text, ${batch.requestHash}::text, ${batch.notifyUrl}::text,
                 ${rows.length}::int, ${accepted}::int, ${batch.logId}::text, ${batch.createdBy ?? null}::text,
                 CASE WHEN m.batch_approval_required AND ${accepted}::int > 0 THEN 'awaiting' END,
                 CASE WHEN m.batch_approval_required AND ${accepted}::int > 0 THEN now() + make_interval(secs => m.approval_ttl_seconds) END
            FROM merchants m WHERE m.id = ${batch.merchantId}::int
          RETURNING *`);
        const col = <T>(f: (r: NewBatchRow) => T) => decided.map(f);
        await tx.execute(sql`
          INSERT INTO disbursement_batch_rows (batch_id, row_no, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount,
                                               accepted, status, failure_code, failure_message, next_check_at)
          SELECT ${batch.id}::uuid, t.row_no, ${batch.merchantId}::int, t.merchant_trx_id, t.bank_code, t.account_no, t.account_name, t.amount,
                 t.code IS NULL, CASE WHEN t.code IS NULL THEN 'checking' ELSE 'refused' END, t.code, t.message,
                 CASE WHEN t.code IS NULL THEN now() END
            FROM unnest(${col((r) => r.rowNo)}::int[], ${col((r) => r.merchantTrxId)}::text[], ${col((r) => r.bankCode)}::text[],
                        ${col((r) => r.accountNo)}::text[], ${col((r) => r.accountName)}::text[], ${col((r) => r.amount)}::bigint[],
                        ${col((r) => r.refusal?.code ?? null)}::text[], ${col((r) => r.refusal?.message ?? null)}::text[])
              AS t(row_no, merchant_trx_id, bank_code, account_no, account_name, amount, code, message)`);
        if (accepted > 0) await tx.execute(sql`SELECT pg_notify(${BATCH_ROWS_CHANNEL}::text, ${batch.id}::text)`);
        return { kind: 'created', batch: fromRow<DisbursementBatch>(created), rows: await this.rowsOf(tx, batch.id) };
      },
      { advisoryLock: [SUBMIT_LOCK_CLASS, batch.merchantId] },
    );
  }

  /**
   * What a submission of these rows would answer now, recording nothing (the dashboard's preview):
   * the rows refused already, and a merchantTrxId taken (as `submit` decides it) refused `duplicate`.
   */
  async preview(
    merchantId: number,
    rows: NewBatchRow[],
    duplicate: { code: string; message: string },
  ): Promise<NewBatchRow[]> {
    const taken = await takenTrxIds(
      this.db,
      merchantId,
      rows.filter((r) => !r.refusal).map((r) => r.merchantTrxId),
    );
    return refuseTaken(rows, taken, duplicate);
  }

  /** The merchant's batch by its batchId, with its summary (null: none of this merchant). */
  async find(merchantId: number, batchId: string): Promise<(DisbursementBatch & { summary: BatchSummary }) | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursement_batches WHERE merchant_id = ${merchantId} AND batch_id = ${batchId}`,
    );
    if (!row) return null;
    const batch = fromRow<DisbursementBatch>(row);
    return { ...batch, summary: await summaryOf(this.db, batch.id) };
  }

  /** A page of a batch's rows in row order, each with its disbursement's state. */
  async rows(batchUuid: string, offset: number, limit: number): Promise<BatchRowView[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT r.*, ${ROW_STATUS} AS current_status, d.account_name AS bank_account_name, d.platform_trx_id, d.status AS disbursement_status, d.fee, d.refusal_reason,
             d.failure_code AS disbursement_failure_code, d.failure_reason AS disbursement_failure_reason
        FROM disbursement_batch_rows r LEFT JOIN disbursements d ON d.id = r.disbursement_id
       WHERE r.batch_id = ${batchUuid}::uuid
       ORDER BY r.row_no OFFSET ${offset} LIMIT ${limit}`);
    return rows.map((r) => fromRow<BatchRowView>(r));
  }

  private async rowsOf(tx: SqlClient, batchUuid: string): Promise<DisbursementBatchRow[]> {
    const rows = await tx.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursement_batch_rows WHERE batch_id = ${batchUuid}::uuid ORDER BY row_no`,
    );
    return rows.map((r) => fromRow<DisbursementBatchRow>(r));
  }

  /**
   * Claims up to `limit` rows whose name check is due (leased for `leaseMs`, so another payout
   * worker leaves them; a lapsed lease is claimed again), oldest first, and says when the earliest
   * later check falls due.
   */
  async claimChecks(limit: number, leaseMs: number): Promise<{ claimed: ClaimedBatchRow[]; nextDueAt: Date | null }> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH due AS (
        SELECT batch_id, row_no FROM disbursement_batch_rows
         WHERE status = 'checking' AND next_check_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_check_at, batch_id, row_no
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE disbursement_batch_rows r SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
               check_attempts = r.check_attempts + 1, updated_at = now()
          FROM due WHERE r.batch_id = due.batch_id AND r.row_no = due.row_no
        RETURNING r.*),
      upcoming AS (SELECT min(next_check_at) AS at FROM disbursement_batch_rows WHERE status = 'checking' AND next_check_at > now())
      SELECT c.*, b.notify_url, b.log_id, upcoming.at AS upcoming_at
        FROM upcoming LEFT JOIN (claimed c JOIN disbursement_batches b ON b.id = c.batch_id) ON true
       ORDER BY c.batch_id, c.row_no`);
    const nextDueAt = (rows[0]?.upcoming_at as Date | null | undefined) ?? null;
    const claimed = rows
      .filter((r) => r.batch_id !== null)
      .map(({ upcoming_at: _at, ...r }) => fromRow<ClaimedBatchRow>(r));
    return { claimed, nextDueAt };
  }

  /**
   * Records a round of name checks in one statement (one transaction). A row to fund gets its
   * inquiry (the bank's name, the merchant's flat fee now, consumed at once), its disbursement
   * (`funding`, the batch's notifyUrl or none) and the ledger's payout.debit in the outbox, in row
   * order, as a single transfer does; a merchantTrxId a single transfer took meanwhile refuses the
   * row DUPLICATE_MERCHANT_TRX_ID (`duplicate`). Refusals and retries are recorded on the row.
   * A row no longer `checking` (recorded by another worker after a lapsed lease) is left alone.
   */
  async recordChecks(outcomes: NameCheckOutcome[], duplicate: { code: string; message: string }): Promise<void> {
    if (outcomes.length === 0) return;
    const o = [...outcomes].sort((a, b) =>
      a.row.batchId === b.row.batchId ? a.row.rowNo - b.row.rowNo : a.row.batchId < b.row.batchId ? -1 : 1,
    );
    const debitPrefix = ledgerCommandId.payoutDebit('');
    await this.db.query(sql`
      WITH input AS (
        SELECT * FROM unnest(${o.map((x) => x.row.batchId)}::uuid[], ${o.map((x) => x.row.rowNo)}::int[], ${o.map((x) => x.kind)}::text[],
                             ${o.map((x) => (x.kind === 'fund' ? x.disbursementId : null))}::uuid[],
                             ${o.map((x) => (x.kind === 'fund' ? x.platformTrxId : null))}::text[],
                             ${o.map((x) => (x.kind === 'fund' ? x.accountName : null))}::text[],
                             ${o.map((x) => (x.kind === 'refuse' ? x.code : null))}::text[],
                             ${o.map((x) => (x.kind === 'refuse' ? x.message : null))}::text[],
                             ${o.map((x) => (x.kind === 'retry' ? x.at : null))}::timestamptz[])
          WITH ORDINALITY AS i(batch_id, row_no, kind, disbursement_id, platform_trx_id, account_name, code, message, retry_at, ord)),
      live AS (
        SELECT i.*, r.merchant_id, r.merchant_trx_id, r.bank_code, r.account_no, r.amount, b.notify_url, b.log_id, m.payout_fee_flat AS fee,
               b.approval AS batch_approval, b.approval_expires_at AS batch_expires_at, b.created_by AS batch_created_by
          FROM input i
          JOIN disbursement_batch_rows r ON r.batch_id = i.batch_id AND r.row_no = i.row_no AND r.status = 'checking'
          JOIN disbursement_batches b ON b.id = r.batch_id
          JOIN merchants m ON m.id = r.merchant_id
         -- The batch shared-locked: a decision on it (which locks it for update) waits for these rows, and
         -- a decision made first is read here, so every row's disbursement takes the batch's approval as it stands.
         FOR UPDATE OF r FOR SHARE OF b),
      inquiry AS (
        INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
        SELECT l.platform_trx_id, l.merchant_id, l.merchant_trx_id, l.bank_code, l.account_no, l.account_name, l.amount, l.fee, now()
          FROM live l WHERE l.kind = 'fund'
        RETURNING platform_trx_id),
      created AS (
        INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, log_id,
                                   created_by, approval, approval_expires_at)
        SELECT l.disbursement_id, l.merchant_id, l.merchant_trx_id, q.platform_trx_id, l.bank_code, l.account_no, l.account_name, l.amount, l.fee,
               COALESCE(l.notify_url, ''), 'funding', l.log_id, l.batch_created_by, l.batch_approval,
               CASE WHEN l.batch_approval = 'awaiting' THEN l.batch_expires_at END
          FROM live l JOIN inquiry q ON q.platform_trx_id = l.platform_trx_id
         ORDER BY l.ord
        ON CONFLICT DO NOTHING
        RETURNING *),
      command AS (
        INSERT INTO outbox (topic, key, payload, headers)
        SELECT ${Topic.LedgerCommands}::text, c.merchant_id::text,
               jsonb_strip_nulls(jsonb_build_object(
                 'type', 'payout.debit', 'commandId', ${debitPrefix}::text || c.id::text, 'merchantId', c.merchant_id, 'logId', c.log_id,
                 'issuedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'payoutId', c.id::text,
                 'amount', c.amount::text, 'fee', c.fee::text)),
               jsonb_strip_nulls(jsonb_build_object('message-id', ${debitPrefix}::text || c.id::text, 'log-id', c.log_id))
          FROM created c JOIN live l ON l.disbursement_id = c.id
         ORDER BY l.ord
        RETURNING id)
      UPDATE disbursement_batch_rows r
         SET status = CASE WHEN l.kind = 'retry' THEN 'checking' WHEN c.id IS NOT NULL THEN 'submitted' ELSE 'refused' END,
             disbursement_id = c.id,
             failure_code = CASE WHEN l.kind = 'refuse' THEN l.code WHEN l.kind = 'fund' AND c.id IS NULL THEN ${duplicate.code}::text END,
             failure_message = CASE WHEN l.kind = 'refuse' THEN l.message WHEN l.kind = 'fund' AND c.id IS NULL THEN ${duplicate.message}::text END,
             next_check_at = CASE WHEN l.kind = 'retry' THEN l.retry_at END,
             lease_until = NULL, updated_at = now()
        FROM live l LEFT JOIN created c ON c.id = l.disbursement_id
       WHERE r.batch_id = l.batch_id AND r.row_no = l.row_no`);
  }

  /**
   * Marks complete, once, up to `limit` open batches whose every row is final (refused, or its
   * disbursement refused, success, failed or reversed), in one transaction with `announce`'s
   * writes (the callback): a batch is announced once, whichever payout worker sees it first.
   */
  async completeFinished(
    limit: number,
    announce: (tx: SqlClient, batches: CompletedBatch[]) => Promise<void>,
  ): Promise<CompletedBatch[]> {
    return inTransaction(this.pool, async (tx) => {
      const rows = await tx.query<Record<string, unknown>>(sql`
        SELECT b.*, m.name AS merchant_name FROM disbursement_batches b JOIN merchants m ON m.id = b.merchant_id
         WHERE b.completed_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM disbursement_batch_rows r WHERE r.batch_id = b.id AND r.status = 'checking')
           AND NOT EXISTS (SELECT 1 FROM disbursement_batch_rows r JOIN disbursements d ON d.id = r.disbursement_id
                            WHERE r.batch_id = b.id AND d.status IN ('funding', 'pending'))
         ORDER BY b.created_at LIMIT ${limit}
         FOR UPDATE OF b SKIP LOCKED`);
      if (rows.length === 0) return [];
      const completedAt = new Date();
      const batches: CompletedBatch[] = [];
      for (const { merchant_name, ...row } of rows)
        batches.push({
          ...fromRow<DisbursementBatch>(row),
          merchantName: merchant_name as string,
          completedAt,
          summary: await summaryOf(tx, row.id as string),
        });
      await tx.execute(
        sql`UPDATE disbursement_batches SET completed_at = ${completedAt} WHERE id = ANY(${batches.map((b) => b.id)}::uuid[]) AND completed_at IS NULL`,
      );
      await announce(tx, batches);
      return batches;
    });
  }
}

/** The merchantTrxIds among `ids` a live disbursement of the merchant, or an accepted row of one of its batches still being checked, holds. */
async function takenTrxIds(db: SqlClient, merchantId: number, ids: string[]): Promise<Set<string>> {
  const rows = await db.query<{ merchant_trx_id: string }>(sql`
    SELECT merchant_trx_id FROM disbursements
     WHERE merchant_id = ${merchantId} AND merchant_trx_id = ANY(${ids}::text[]) AND status <> 'refused'
    UNION
    SELECT merchant_trx_id FROM disbursement_batch_rows
     WHERE merchant_id = ${merchantId} AND merchant_trx_id = ANY(${ids}::text[]) AND status = 'checking'`);
  return new Set(rows.map((r) => r.merchant_trx_id));
}

/** Rows not refused yet whose merchantTrxId is taken, or taken by an earlier row, refused `duplicate`. */
function refuseTaken(rows: NewBatchRow[], taken: Set<string>, duplicate: { code: string; message: string }) {
  const held = new Set(taken);
  return rows.map((r) => {
    if (r.refusal) return r;
    if (held.has(r.merchantTrxId)) return { ...r, refusal: duplicate };
    held.add(r.merchantTrxId);
    return r;
  });
}

/** A batch's rows counted by status (a submitted row by its disbursement's), and the money of the successful ones. */
async function summaryOf(db: SqlClient, batchUuid: string): Promise<BatchSummary> {
  const [s] = await db.query<Record<string, bigint | number | null>>(sql`
    SELECT count(*) FILTER (WHERE x.status = 'checking')::int AS checking,
           count(*) FILTER (WHERE x.status = 'pending')::int AS pending,
           count(*) FILTER (WHERE x.status = 'success')::int AS success,
           count(*) FILTER (WHERE x.status = 'failed')::int AS failed,
           count(*) FILTER (WHERE x.status = 'refused')::int AS refused,
           count(*) FILTER (WHERE x.status = 'reversed')::int AS reversed,
           COALESCE(sum(x.amount) FILTER (WHERE x.status = 'success'), 0)::bigint AS success_amount,
           COALESCE(sum(x.fee) FILTER (WHERE x.status = 'success'), 0)::bigint AS success_fee,
           COALESCE(sum(x.amount) FILTER (WHERE x.accepted), 0)::bigint AS accepted_amount
      FROM (SELECT ${ROW_STATUS} AS status, r.amount, d.fee, r.accepted
              FROM disbursement_batch_rows r LEFT JOIN disbursements d ON d.id = r.disbursement_id
             WHERE r.batch_id = ${batchUuid}::uuid) x`);
  return {
    checking: Number(s.checking),
    pending: Number(s.pending),
    success: Number(s.success),
    failed: Number(s.failed),
    refused: Number(s.refused),
    reversed: Number(s.reversed),
    successAmount: BigInt(s.success_amount ?? 0),
    successFee: BigInt(s.success_fee ?? 0),
    acceptedAmount: BigInt(s.accepted_amount ?? 0),
  };
}
