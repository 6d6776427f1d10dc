import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { type SqlClient, sqlClient, type SqlQuery } from '../client/sql';
import type { Disbursement, Payin } from '../generated/prisma/client';

/** A row's place in a list: lists are ordered newest first by (created at, id). */
export interface ListPosition {
  createdAt: Date;
  /** A uuid (pay-ins, disbursements) or the decimal digits of a bigint (ledger events) */
  id: string;
}

/**
 * Which rows of one merchant: created in [from, to), strictly after `after` in the list's order
 * (that is, older), at most `limit`. The merchant is always part of the statement, so a position
 * taken from another merchant's list only positions: it never shows that merchant's rows.
 */
export interface ListWindow {
  merchantId: number;
  limit: number;
  after?: ListPosition;
  from?: Date;
  to?: Date;
  /** Only rows whose merchantTrxId starts with this (a range of the (merchant, merchantTrxId COLLATE "C") index) */
  merchantTrxId?: string;
}

/** A pay-in's status as the merchant sees it (a pending code past its expiry is `expired`). */
export type PayinListStatus = 'pending' | 'success' | 'failed' | 'expired';
/** A disbursement's public status (`funding` reads `pending`; refused attempts are not listed). */
export type DisbursementListStatus = 'pending' | 'success' | 'failed' | 'reversed';

/** A ledger event with the balance it left and the merchant's ids of the transaction it is about. */
export interface BalanceMovement {
  id: bigint;
  seq: bigint;
  type: string;
  reference: string;
  availableDelta: bigint;
  pendingDelta: bigint;
  availableAfter: bigint;
  pendingAfter: bigint;
  occurredAt: Date;
  merchantTrxId: string | null;
  platformTrxId: string | null;
}

// Fixed SQL per status (never a value from the request): each filter is its own statement, so its
// plan is the status index's range scan, not a generic plan for "any status or none".
const PAYIN_STATUS: Record<PayinListStatus | 'any', string> = {
  any: '',
  success: `AND status = 'success'`,
  failed: `AND status = 'failed'`,
  pending: `AND status = 'pending' AND (expires_at IS NULL OR expires_at > now())`,
  expired: `AND status = 'pending' AND expires_at <= now()`,
};
const DISBURSEMENT_STATUS: Record<DisbursementListStatus | 'any', string[]> = {
  any: [`AND status <> 'refused'`],
  success: [`AND status = 'success'`],
  failed: [`AND status = 'failed'`],
  reversed: [`AND status = 'reversed'`],
  // Two ranges of the status index, merged in order (Merge Append) rather than one scan and a sort.
  pending: [`AND status = 'pending'`, `AND status = 'funding'`],
};

const UUID = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
interface IdRange {
  type: 'uuid' | 'bigint';
  min: string;
  max: string;
}
const UUIDS: IdRange = {
  type: 'uuid',
  min: '00000000-0000-0000-0000-000000000000',
  max: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
};
const EVENT_IDS: IdRange = { type: 'bigint', min: '0', max: '9223372036854775807' };

/**
 * The merchant's history lists: keyset pages over (created_at, id) descending, each an index
 * range scan of `limit` rows wherever the page starts (migration 20261126030000_history_lists).
 * Parameters: merchant, from, the upper bound (created_at, id) and the limit; absent bounds are
 * ±infinity, so every filter combination is the same statement.
 */
export class HistoryRepository {
  private readonly db: SqlClient;

  /** On the pool; or on any SqlClient (the bench's, which also explains the statements). */
  constructor(db: Pool | SqlClient) {
    this.db = 'execute' in db ? db : sqlClient(db);
  }

  async payins(w: ListWindow, status?: PayinListStatus): Promise<Payin[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      page('payins', 'created_at', [PAYIN_STATUS[status ?? 'any']], w, UUIDS),
    );
    return rows.map((r) => fromRow<Payin>(r));
  }

  async disbursements(w: ListWindow, status?: DisbursementListStatus): Promise<Disbursement[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      page('disbursements', 'created_at', DISBURSEMENT_STATUS[status ?? 'any'], w, UUIDS),
    );
    return rows.map((r) => fromRow<Disbursement>(r));
  }

  /** Ledger events; created at is the event's occurred_at. The page is read first, then its 20 rows joined to their transactions. */
  async movements(w: ListWindow): Promise<BalanceMovement[]> {
    const events = page(
      'ledger_events',
      'occurred_at',
      [''],
      w,
      EVENT_IDS,
      'id, seq, type, reference, available_delta, pending_delta, available_after, pending_after, occurred_at',
    );
    const rows = await this.db.query<Record<string, unknown>>({
      text: `WITH page AS (${events.text})
        SELECT page.*, coalesce(p.merchant_trx_id, d.merchant_trx_id) AS merchant_trx_id, coalesce(p.platform_trx_id, d.platform_trx_id) AS platform_trx_id
          FROM page
          -- a refund's movements name the refunded pay-in
          LEFT JOIN payin_refunds r ON r.merchant_id = $1 AND page.type IN ('payin.refunded', 'payin.refund_returned')
                            AND r.id = CASE WHEN page.reference ~ ${UUID} THEN page.reference::uuid END
          LEFT JOIN payins p ON p.merchant_id = $1 AND page.type IN ('payin.recorded', 'payin.refunded', 'payin.refund_returned')
                            AND p.id = coalesce(r.payin_id, CASE WHEN page.type = 'payin.recorded' AND page.reference ~ ${UUID} THEN page.reference::uuid END)
          LEFT JOIN disbursements d ON d.merchant_id = $1 AND page.type IN ('payout.debited', 'payout.refunded', 'payout.reversed')
                            AND d.id = CASE WHEN page.reference ~ ${UUID} THEN page.reference::uuid END
         ORDER BY page.occurred_at DESC, page.id DESC`,
      values: events.values,
    });
    return rows.map((r) => fromRow<BalanceMovement>(r));
  }
}

/**
 * One page of `table`: a UNION ALL of one ordered range per status condition when there are several.
 * The upper bound is one row comparison, the tighter of the cursor and `to` (created_at < to is
 * (created_at, id) < (to, the least id)): with two upper bounds on created_at the index scan may
 * start from the looser one and read down to the other.
 */
function page(
  table: string,
  createdAt: string,
  conditions: string[],
  w: ListWindow,
  ids: IdRange,
  columns = '*',
): SqlQuery {
  // The search is its own statement (two more parameters), so the lists without it keep their plans.
  // A prefix p of printable ASCII ids is the range [p, p + DEL) in byte order (migration 20261202000000).
  const byTrxId =
    w.merchantTrxId === undefined ? '' : `AND merchant_trx_id COLLATE "C" >= $6 AND merchant_trx_id COLLATE "C" < $7`;
  const range = (condition: string) => `
    SELECT ${columns} FROM ${table}
     WHERE merchant_id = $1 AND ${createdAt} >= $2::timestamptz AND (${createdAt}, id) < ($3::timestamptz, $4::${ids.type}) ${condition} ${byTrxId}
     ORDER BY ${createdAt} DESC, id DESC LIMIT $5`;
  const text =
    conditions.length === 1
      ? range(conditions[0])
      : `${conditions.map((c) => `(${range(c)})`).join(' UNION ALL ')} ORDER BY ${createdAt} DESC, id DESC LIMIT $5`;
  const byTo = w.to ? { createdAt: w.to, id: ids.min } : undefined;
  const upper = !byTo || (w.after && w.after.createdAt < byTo.createdAt) ? w.after : byTo;
  const values = [w.merchantId, w.from ?? '-infinity', upper?.createdAt ?? 'infinity', upper?.id ?? ids.max, w.limit];
  return {
    text,
    values: w.merchantTrxId === undefined ? values : [...values, w.merchantTrxId, `${w.merchantTrxId}\x7F`],
  };
}
