import { type LedgerCommand, ledgerCommandId, type PayoutEventMessage, PayoutEventType, Topic } from '@pay/contracts';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, sqlClient, type SqlClient } from '../client/sql';
import { ledgerCommandMessage, type OutboxMessage, outboxHeaders } from '../outbox/outbox-writer';
import type { Disbursement } from '../generated/prisma/client';

/**
 * The payout service's view of disbursements: claim work, record submissions, finalise.
 * Plain pg: every transfer passes through here several times (docs/decisions/0010).
 */
export class PayoutRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Claims up to `limit` pending disbursements that are due (optionally only among `onlyIds`),
   * setting a lease so no other payout worker touches them until it expires; a crashed worker's
   * lease lapses and the work is picked up again. In the same statement: the earliest future
   * `next_check_at` (a recheck the rail asked for), so the caller can sleep until then instead
   * of polling. A lease that lapses is found by the caller's safety-net round.
   */
  async claimDue(limit: number, leaseMs: number, onlyIds?: string[]): Promise<ClaimedBatch> {
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH claimed AS (
        UPDATE disbursements SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
         WHERE id IN (
           SELECT id FROM disbursements
            WHERE status = 'pending' AND next_check_at <= now()
              AND (lease_until IS NULL OR lease_until < now())
              AND (${onlyIds ?? null}::uuid[] IS NULL OR id = ANY(${onlyIds ?? null}::uuid[]))
            ORDER BY next_check_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
        RETURNING *),
      upcoming AS (SELECT min(next_check_at) AS at FROM disbursements WHERE status = 'pending' AND next_check_at > now())
      SELECT claimed.*, upcoming.at AS upcoming_check_at FROM upcoming LEFT JOIN claimed ON true`);
    const nextDueAt = (rows[0]?.upcoming_check_at as Date | null | undefined) ?? null;
    const claimed = rows
      .filter((r) => r.id !== null)
      .map(({ upcoming_check_at: _upcoming, ...r }) => fromRow<Disbursement>(r));
    return { claimed, nextDueAt };
  }

  /**
   * Recorded before the rail is called (for the whole batch about to be submitted, in one
   * statement): after a crash we know to ask the rail rather than assume.
   */
  async markSubmitting(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(sql`
      UPDATE disbursements SET submitted_at = COALESCE(submitted_at, now()), submit_attempts = submit_attempts + 1, updated_at = now()
       WHERE id = ANY(${ids}::uuid[]) AND status = 'pending'`);
  }

  /**
   * Records a batch's outcomes in one statement (so one transaction): rechecks get their next
   * look and let the lease go; finals move pending -> success | failed with, for exactly the rows
   * this statement moved, the outcome event and (on failure) the refund command for the ledger.
   * A disbursement already final (finalised elsewhere meanwhile) is left alone and gets no second
   * event or refund. Returns the ids this call finalised.
   */
  async complete(batch: PayoutOutcome[]): Promise<Set<string>> {
    if (batch.length === 0) return new Set();
    // Rows locked in id order: two workers completing overlapping batches (a lapsed lease) wait, never deadlock.
    const outcomes = [...batch].sort((a, b) => (a.disbursement.id < b.disbursement.id ? -1 : a.disbursement.id > b.disbursement.id ? 1 : 0));
    const messages: { disbursementId: string; message: OutboxMessage }[] = [];
    for (const o of outcomes) {
      if (o.kind === 'failed') messages.push({ disbursementId: o.disbursement.id, message: ledgerCommandMessage(refundCommand(o)) });
      if (o.kind !== 'recheck') messages.push({ disbursementId: o.disbursement.id, message: outcomeMessage(o) });
    }
    const [row] = await this.db.query<{ finalised: string[] | null }>(sql`
      WITH input AS (
        SELECT * FROM unnest(${outcomes.map((o) => o.disbursement.id)}::uuid[], ${outcomes.map((o) => o.kind)}::text[], ${outcomes.map((o) => o.at)}::timestamptz[],
                             ${outcomes.map((o) => o.railReference ?? null)}::text[], ${outcomes.map((o) => (o.kind === 'failed' ? o.reason : null))}::text[])
          AS i(id, kind, at, rail_reference, reason)),
      rechecked AS (
        UPDATE disbursements d SET next_check_at = i.at, lease_until = NULL, rail_reference = COALESCE(i.rail_reference, d.rail_reference), updated_at = now()
          FROM input i
         WHERE i.kind = 'recheck' AND d.id = i.id AND d.status = 'pending'
        RETURNING d.id),
      finalised AS (
        UPDATE disbursements d
           SET status = i.kind,
               success_at = CASE WHEN i.kind = 'success' THEN i.at END,
               failed_at = CASE WHEN i.kind = 'failed' THEN i.at END,
               failure_reason = i.reason,
               rail_reference = COALESCE(i.rail_reference, d.rail_reference), lease_until = NULL, updated_at = now()
          FROM input i
         WHERE i.kind IN ('success', 'failed') AND d.id = i.id AND d.status = 'pending'
        RETURNING d.id),
      written AS (
        INSERT INTO outbox (topic, key, payload, headers)
        SELECT m.topic, m.key, m.payload::jsonb, m.headers::jsonb
          FROM unnest(${messages.map((m) => m.disbursementId)}::uuid[], ${messages.map((m) => m.message.topic)}::text[], ${messages.map((m) => m.message.key)}::text[],
                      ${messages.map((m) => JSON.stringify(m.message.payload))}::text[], ${messages.map((m) => JSON.stringify(m.message.headers))}::text[])
               WITH ORDINALITY AS m(disbursement_id, topic, key, payload, headers, ord)
         WHERE m.disbursement_id IN (SELECT id FROM finalised)
         ORDER BY m.ord
        RETURNING id)
      SELECT (SELECT array_agg(id::text) FROM finalised) AS finalised, (SELECT count(*) FROM rechecked) AS rechecked, (SELECT count(*) FROM written) AS written`);
    return new Set(row?.finalised ?? []);
  }
}

/** A disbursement claimed for one round. */
export interface ClaimedBatch {
  claimed: Disbursement[];
  /** The earliest future recheck of any pending disbursement; null when none */
  nextDueAt: Date | null;
}

/** What one round learnt about a disbursement from the rail. */
export type PayoutOutcome =
  | { kind: 'recheck'; disbursement: Disbursement; at: Date; railReference?: string | null }
  | { kind: 'success'; disbursement: Disbursement; at: Date; railReference: string }
  | { kind: 'failed'; disbursement: Disbursement; at: Date; railReference: string | null; reason: string };

function refundCommand(o: Extract<PayoutOutcome, { kind: 'failed' }>): LedgerCommand {
  const d = o.disbursement;
  return {
    type: 'payout.refund',
    commandId: ledgerCommandId.payoutRefund(d.id),
    merchantId: d.merchantId,
    logId: d.logId ?? undefined,
    issuedAt: o.at.toISOString(),
    payoutId: d.id,
    reason: o.reason,
  };
}

/** The payout event the workers turn into the merchant's webhook. */
function outcomeMessage(o: Exclude<PayoutOutcome, { kind: 'recheck' }>): OutboxMessage {
  const d = o.disbursement;
  const failed = o.kind === 'failed';
  const fee = failed ? 0n : d.fee;
  const eventId = `disbursement.${d.id}.${o.kind}`;
  const message: PayoutEventMessage = {
    eventId,
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
    successAt: failed ? null : o.at.toISOString(),
    failureReason: failed ? o.reason : null,
    notifyUrl: d.notifyUrl,
    logId: d.logId ?? undefined,
    occurredAt: new Date().toISOString(),
  };
  return { topic: Topic.PayoutEvents, key: String(d.merchantId), payload: message, headers: outboxHeaders(eventId, d.logId) };
}
