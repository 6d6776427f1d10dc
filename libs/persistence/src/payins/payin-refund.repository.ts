import { ledgerCommandId, type RefundPayinCommand, type ReturnPayinRefundCommand } from '@pay/contracts';
import {
  type Minor,
  PAYIN_REFUNDED_CALLBACK,
  refundCallbackBody,
  refundCallbackEventId,
  refundStatus,
} from '@pay/domain';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, type SqlClient, sqlClient } from '../client/sql';
import type { PayinRefund } from '../generated/prisma/client';
import { enqueueLedgerCommandSql } from '../outbox/outbox-writer';

export type { PayinRefund };

/** A merchant's refund request as the gateway validated it. */
export interface RefundRequest {
  id: string;
  merchantId: number;
  merchantTrxId: string;
  refundId: string;
  amount: Minor;
  reason: string | null;
  logId: string | null;
  /** The acquirer's refund window: a pay-in paid longer ago than this is not refundable */
  windowSeconds: number;
}

/**
 * What recordRefund did, checked in this order: `existing` (the refundId names a live refund of
 * the merchant: the row, whatever its pay-in), `payinNotFound`, `notRefundable` (not a successful
 * pay-in: its status), `windowClosed` (paid longer ago than the window), `exceeds` (more than what
 * is left of the pay-in: the rest), `created`.
 */
export type RefundVerdict =
  | { kind: 'created' | 'existing'; refund: PayinRefund }
  | { kind: 'payinNotFound' }
  | { kind: 'notRefundable'; status: string }
  | { kind: 'windowClosed'; successAt: Date }
  | { kind: 'exceeds'; left: Minor };

/** A refund with the pay-in it refunds, as the inquiry shows it. */
export type RefundView = PayinRefund & { merchantTrxId: string; platformTrxId: string };

/** Refunds that count against a pay-in: all but the ones the ledger refused or the acquirer failed. */
const COUNTED = sql`status NOT IN ('refused', 'failed')`;

/**
 * Pay-in refunds (issue 44): recorded by the gateway with the ledger's debit command, decided by
 * the ledger (refund-payin.handler.ts), sent to the acquirer by the workers' sender.
 */
export class PayinRefundRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * A new refund, in one transaction holding the pay-in's row (FOR UPDATE): concurrent refunds
   * of one pay-in are decided one after the other, each seeing what the ones before it took, so
   * together they never exceed the pay-in. Recorded `debiting` with its `payin.refund` command in
   * the outbox. The same refundId twice at once: the unique index lets one in, the other reads it.
   */
  async recordRefund(r: RefundRequest): Promise<RefundVerdict> {
    const verdict = await inTransaction(this.pool, async (tx) => {
      // The lock first, in a statement of its own: what the refunds took is read after it, by a
      // statement whose snapshot sees every refund a concurrent holder committed.
      const [locked] = await tx.query<{ id: string }>(sql`
        SELECT id::text AS id FROM payins WHERE merchant_id = ${r.merchantId} AND merchant_trx_id = ${r.merchantTrxId} FOR UPDATE`);
      const [payin] = locked
        ? await tx.query<{
            id: string;
            amount: bigint;
            status: string;
            success_at: Date | null;
            taken: bigint;
            in_window: boolean;
          }>(sql`
            SELECT p.id::text AS id, p.amount, p.status, p.success_at,
                   p.success_at > now() - make_interval(secs => ${r.windowSeconds}) AS in_window,
                   (SELECT COALESCE(sum(x.amount), 0)::bigint FROM payin_refunds x WHERE x.payin_id = p.id AND x.${COUNTED}) AS taken
              FROM payins p WHERE p.id = ${locked.id}::uuid`)
        : [];
      // Read after the pay-in's lock: a concurrent copy of this request that held it first is seen.
      const existing = await this.findLive(r.merchantId, r.refundId, tx);
      if (existing) return { kind: 'existing' as const, refund: existing };
      if (!payin) return { kind: 'payinNotFound' as const };
      if (payin.status !== 'success' || !payin.success_at)
        return { kind: 'notRefundable' as const, status: payin.status };
      if (!payin.in_window) return { kind: 'windowClosed' as const, successAt: payin.success_at };
      const left = payin.amount - payin.taken;
      if (r.amount > left) return { kind: 'exceeds' as const, left };
      const [row] = await tx.query<Record<string, unknown>>(sql`
        INSERT INTO payin_refunds (id, merchant_id, payin_id, refund_id, amount, reason, status, log_id)
        VALUES (${r.id}::uuid, ${r.merchantId}, ${payin.id}::uuid, ${r.refundId}, ${r.amount}, ${r.reason}, 'debiting', ${r.logId})
        ON CONFLICT DO NOTHING RETURNING *`);
      if (!row) return null; // the same refundId on another pay-in, committed meanwhile
      const command: RefundPayinCommand = {
        type: 'payin.refund',
        commandId: ledgerCommandId.payinRefund(r.id),
        merchantId: r.merchantId,
        logId: r.logId ?? undefined,
        issuedAt: new Date().toISOString(),
        refundId: r.id,
        payinId: payin.id,
        amount: r.amount.toString(),
      };
      await enqueueLedgerCommandSql(tx, command);
      return { kind: 'created' as const, refund: fromRow<PayinRefund>(row) };
    });
    if (verdict) return verdict;
    const winner = await this.findLive(r.merchantId, r.refundId);
    if (!winner) throw new Error(`refund ${r.refundId} of merchant ${r.merchantId}: conflict without a winner`);
    return { kind: 'existing', refund: winner };
  }

  /** The merchant's refund with this refundId that the ledger did not refuse. */
  async findLive(merchantId: number, refundId: string, db: SqlClient = this.db): Promise<PayinRefund | null> {
    const [row] = await db.query<Record<string, unknown>>(
      sql`SELECT * FROM payin_refunds WHERE merchant_id = ${merchantId} AND refund_id = ${refundId} AND status <> 'refused'`,
    );
    return row ? fromRow<PayinRefund>(row) : null;
  }

  /** A refund by our id, with its pay-in's ids. */
  async get(id: string): Promise<RefundView | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`
      SELECT r.*, p.merchant_trx_id, p.platform_trx_id FROM payin_refunds r JOIN payins p ON p.id = r.payin_id
       WHERE r.id = ${id}::uuid`);
    return row ? fromRow<RefundView>(row) : null;
  }

  /** The merchant's refund by refundId (the live one, else the latest refused attempt), with its pay-in's ids. */
  async view(merchantId: number, refundId: string): Promise<RefundView | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`
      SELECT r.*, p.merchant_trx_id, p.platform_trx_id FROM payin_refunds r JOIN payins p ON p.id = r.payin_id
       WHERE r.merchant_id = ${merchantId} AND r.refund_id = ${refundId}
       ORDER BY (r.status = 'refused'), r.created_at DESC LIMIT 1`);
    return row ? fromRow<RefundView>(row) : null;
  }

  /** A pay-in's refunds the ledger did not refuse, oldest first. */
  async ofPayin(payinId: string): Promise<RefundView[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT r.*, p.merchant_trx_id, p.platform_trx_id FROM payin_refunds r JOIN payins p ON p.id = r.payin_id
       WHERE r.payin_id = ${payinId}::uuid AND r.status NOT IN ('refused', 'debiting') ORDER BY r.created_at, r.id`);
    return rows.map((row) => fromRow<RefundView>(row));
  }

  /** The ledger's refusal of a refund's debit (reason and detail), once decided. */
  async ledgerRefusal(id: string): Promise<{ reason: string; detail: Record<string, string> } | null> {
    const [row] = await this.db.query<{
      result: { outcome: string; reason?: string; detail?: Record<string, string> };
    }>(sql`SELECT result FROM ledger_commands WHERE command_id = ${ledgerCommandId.payinRefund(id)}`);
    if (row?.result.outcome !== 'rejected') return null;
    return { reason: row.result.reason ?? '', detail: row.result.detail ?? {} };
  }

  /**
   * Debited refunds due for the acquirer, leased for `leaseMs` (next_attempt_at moved on), so
   * two senders never send the same refund at once and one that died is picked up again.
   * `merchantIds`: only theirs (tests sharing a database); null: all.
   */
  async leaseDue(limit: number, leaseMs: number, merchantIds: number[] | null = null): Promise<RefundView[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH due AS (
        SELECT id FROM payin_refunds WHERE status = 'pending' AND next_attempt_at <= now()
           AND (${merchantIds}::int[] IS NULL OR merchant_id = ANY(${merchantIds}::int[]))
         ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      UPDATE payin_refunds r SET next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}),
             attempt_count = r.attempt_count + 1, updated_at = now()
        FROM due, payins p WHERE r.id = due.id AND p.id = r.payin_id
      RETURNING r.*, p.merchant_trx_id, p.platform_trx_id`);
    return rows.map((row) => fromRow<RefundView>(row));
  }

  /** No answer from the acquirer: asked again (the same partnerRefundNo) at `nextAttemptAt`. */
  async retryLater(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db.execute(sql`
      UPDATE payin_refunds SET last_error = ${error.slice(0, 500)}, next_attempt_at = ${nextAttemptAt}, updated_at = now()
       WHERE id = ${id}::uuid AND status = 'pending'`);
  }

  /**
   * The acquirer's final answer, once: success (its refundNo and refundTime kept) or failed (the
   * ledger's return command in the outbox), with the merchant's `payin.refunded` callback (to the
   * pay-in's notifyUrl, else the merchant's pay-in callback URL; none without either), all in one
   * transaction. Null when the refund was no longer pending (another sender finished it).
   */
  async finish(
    id: string,
    outcome: { status: 'success'; refundNo: string; refundTime: string } | { status: 'failed'; reason: string },
    now: Date = new Date(),
  ): Promise<{ refund: RefundView; callback: boolean } | null> {
    return inTransaction(this.pool, async (tx) => {
      const success = outcome.status === 'success';
      const [row] = await tx.query<
        Record<string, unknown> & { merchant_name: string; callback_url: string | null }
      >(sql`
        UPDATE payin_refunds r SET status = ${outcome.status},
               refund_no = ${success ? outcome.refundNo : null}, refund_time = ${success ? outcome.refundTime : null},
               failure_reason = ${success ? null : outcome.reason}, next_attempt_at = NULL, completed_at = ${now}, updated_at = ${now}
          FROM payins p, merchants m WHERE r.id = ${id}::uuid AND r.status = 'pending' AND p.id = r.payin_id AND m.id = r.merchant_id
        RETURNING r.*, p.merchant_trx_id, p.platform_trx_id, m.name AS merchant_name, COALESCE(p.notify_url, m.payin_callback_url) AS callback_url`);
      if (!row) return null;
      const { merchant_name, callback_url, ...rest } = row;
      const refund = fromRow<RefundView>(rest);
      if (outcome.status === 'failed') {
        const command: ReturnPayinRefundCommand = {
          type: 'payin.refund_return',
          commandId: ledgerCommandId.payinRefundReturn(id),
          merchantId: refund.merchantId,
          logId: refund.logId ?? undefined,
          issuedAt: now.toISOString(),
          refundId: id,
          reason: outcome.reason.slice(0, 500) || 'refused by the acquirer',
        };
        await enqueueLedgerCommandSql(tx, command);
      }
      // Without a callback URL (url ''): the event only logged, no delivery (webhook_deliveries_record_event).
      const status = refundStatus(refund.status);
      await tx.execute(sql`
        INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, payin_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
        VALUES (gen_random_uuid(), ${refundCallbackEventId(refund.id, status)}, ${PAYIN_REFUNDED_CALLBACK}, ${refund.merchantId},
                ${refund.payinId}::uuid, ${callback_url ?? ''}, ${refundCallbackBody(refund, { id: refund.merchantId, name: merchant_name }, now)},
                'pending', ${now}, ${refund.logId}, ${now}, ${now})
        ON CONFLICT (event_id) DO NOTHING`);
      return { refund, callback: callback_url !== null };
    });
  }
}
