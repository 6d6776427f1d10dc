import { type LedgerCommand, ledgerCommandId, type PayoutEventMessage, PayoutEventType, Topic } from '@pay/contracts';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, sqlClient, type SqlClient } from '../client/sql';
import { enqueueLedgerCommandSql, outboxHeaders, writeOutbox } from '../outbox/outbox-writer';
import type { Disbursement } from '../generated/prisma/client';

/**
 * The payout service's view of disbursements: claim work, record submissions, finalise.
 * Plain pg: every transfer passes through here several times (docs/decisions/0010).
 */
export class PayoutRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Claims up to `limit` pending disbursements that are due (or one given id), setting a lease
   * so no other payout worker touches them until it expires; a crashed worker's lease lapses
   * and the work is picked up again.
   */
  async claimDue(limit: number, leaseMs: number, onlyId?: string): Promise<Disbursement[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      UPDATE disbursements SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
       WHERE id IN (
         SELECT id FROM disbursements
          WHERE status = 'pending' AND next_check_at <= now()
            AND (lease_until IS NULL OR lease_until < now())
            AND (${onlyId ?? null}::uuid IS NULL OR id = ${onlyId ?? null}::uuid)
          ORDER BY next_check_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING *`);
    return rows.map((r) => fromRow<Disbursement>(r));
  }

  /** Recorded before the rail is called: after a crash we know to ask the rail rather than assume. */
  async markSubmitting(id: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE disbursements SET submitted_at = COALESCE(submitted_at, now()), submit_attempts = submit_attempts + 1, updated_at = now()
       WHERE id = ${id}::uuid AND status = 'pending'`);
  }

  /** Not final yet: look again at `at`, and let the lease go. */
  async recheckAt(id: string, at: Date, railReference?: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE disbursements SET next_check_at = ${at}, lease_until = NULL, rail_reference = COALESCE(${railReference ?? null}, rail_reference), updated_at = now()
       WHERE id = ${id}::uuid AND status = 'pending'`);
  }

  /** pending -> success, and the outcome event, in one transaction. False when it was already final. */
  async succeed(d: Disbursement, railReference: string, completedAt: Date): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const changed = await tx.execute(sql`
        UPDATE disbursements SET status = 'success', success_at = ${completedAt}, rail_reference = ${railReference}, lease_until = NULL, updated_at = now()
         WHERE id = ${d.id}::uuid AND status = 'pending'`);
      if (changed === 0) return false;
      await this.emitOutcome(tx, { ...d, status: 'success', successAt: completedAt, railReference }, null);
      return true;
    });
  }

  /**
   * pending -> failed, the refund command for the ledger and the outcome event, in one
   * transaction: the refund can never be forgotten once the failure is recorded.
   */
  async fail(d: Disbursement, railReference: string | null, reason: string, failedAt: Date): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const changed = await tx.execute(sql`
        UPDATE disbursements SET status = 'failed', failed_at = ${failedAt}, failure_reason = ${reason},
               rail_reference = COALESCE(${railReference}, rail_reference), lease_until = NULL, updated_at = now()
         WHERE id = ${d.id}::uuid AND status = 'pending'`);
      if (changed === 0) return false;
      const refund: LedgerCommand = {
        type: 'payout.refund',
        commandId: ledgerCommandId.payoutRefund(d.id),
        merchantId: d.merchantId,
        logId: d.logId ?? undefined,
        issuedAt: failedAt.toISOString(),
        payoutId: d.id,
        reason,
      };
      await enqueueLedgerCommandSql(tx, refund);
      await this.emitOutcome(tx, { ...d, status: 'failed', failedAt }, reason);
      return true;
    });
  }

  private async emitOutcome(tx: SqlClient, d: Disbursement, failureReason: string | null): Promise<void> {
    const failed = d.status === 'failed';
    const fee = failed ? 0n : d.fee;
    const message: PayoutEventMessage = {
      eventId: `disbursement.${d.id}.${d.status}`,
      type: failed ? PayoutEventType.DisbursementFailed : PayoutEventType.DisbursementSucceeded,
      disbursementId: d.id,
      merchantId: d.merchantId,
      merchantTrxId: d.merchantTrxId,
      platformTrxId: d.platformTrxId,
      bankCode: d.bankCode,
      accountNo: d.accountNo,
      accountName: d.accountName,
      amount: d.amount.toString(),
      fee: fee.toString(),
      feeFixed: d.fee.toString(),
      totalAmount: (d.amount + fee).toString(),
      status: failed ? 'failed' : 'success',
      successAt: d.successAt ? d.successAt.toISOString() : null,
      failureReason,
      notifyUrl: d.notifyUrl,
      logId: d.logId ?? undefined,
      occurredAt: new Date().toISOString(),
    };
    await writeOutbox(tx, { topic: Topic.PayoutEvents, key: String(d.merchantId), payload: message, headers: outboxHeaders(message.eventId, d.logId) });
  }
}
