import { type LedgerCommand, ledgerCommandId, Topic } from '@pay/contracts';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, sqlClient, type SqlClient, sqlText } from '../client/sql';
import { ledgerCommandMessage, type OutboxMessage } from '../outbox/outbox-writer';
import type { Disbursement } from '../generated/prisma/client';
import type { NewDelivery } from '../webhooks/webhook-delivery.repository';
import { type PayoutAnnouncement, payoutCallbackDelivery, payoutEventMessage } from './payout-announcements';

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
   * How many disbursements are pending (debited, not yet settled by the bank) and the age of the
   * oldest, since its transfer was accepted: the payout metrics (pendingPayoutsMetric). Reads the
   * partial index of pending rows (`disbursements_due_idx`), never the settled history.
   */
  async pendingSummary(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const [row] = await this.db.query<{ n: bigint; age: number | null }>(sql`
      SELECT count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
        FROM disbursements WHERE status = 'pending' AND approval IS DISTINCT FROM 'awaiting'`);
    return { count: Number(row.n), oldestAgeSeconds: Math.max(0, row.age ?? 0) };
  }

  /**
   * Pending disbursements sent to a bank with no answer to any attempt (every attempt timed out,
   * was reset or got a 5xx): the bank may or may not have paid. Read from the few pending rows and
   * their attempts (rail_attempts_by_reference).
   */
  async unknownSummary(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const [row] = await this.db.query<{ n: bigint; age: number | null }>(sql`
      SELECT count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(a.first_sent))::float8 AS age
        FROM disbursements d
        CROSS JOIN LATERAL (
          SELECT min(sent_at) AS first_sent FROM rail_attempts
           WHERE partner_reference_no = d.id::text AND service IN ('17', '18')
          HAVING count(*) > 0 AND bool_and(outcome IS DISTINCT FROM 'answer' AND NOT not_executed)
        ) a
       WHERE d.status = 'pending'`);
    return { count: Number(row.n), oldestAgeSeconds: Math.max(0, row.age ?? 0) };
  }

  /**
   * Claims up to `limit` pending disbursements that are due (optionally only among `onlyIds`),
   * setting a lease so no other payout worker touches them until it expires; a crashed worker's
   * lease lapses and the work is picked up again. The same statement records the submission of
   * every claimed disbursement not submitted before (submitted_at, submit_attempts), so it is on
   * record before the rail is called: after a crash the next worker asks the rail rather than
   * assume; `priorSubmittedAt` tells the caller which ones were submitted before this claim (ask
   * the rail first). Also read: the merchant's name (the callback shows it), how much sandbox money
   * the merchant has received (none of its money goes over a live rail then), and the earliest future
   * `next_check_at` (a recheck the rail asked for), so the caller can sleep until then instead of
   * polling. A lease that lapses is found by the caller's safety-net round.
   *
   * The books: the same statement writes, for every disbursement submitted for the first time, the
   * ledger's `payout.send` over `rail` (payable -> the rail's in-transit). Once per disbursement, as
   * the submission is recorded once; its id is ledgerCommandId.payoutSend, so it is the same command
   * whoever writes it. A disbursement that will not be sent (sandbox money over a live rail, the
   * rule of sendsSandboxMoney in @pay/bank-rail) gets none.
   */
  async claimDue(limit: number, leaseMs: number, rail: ClaimRail, onlyIds?: string[]): Promise<ClaimedBatch> {
    const send = sendCommandTemplate(rail.name);
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH due AS (
        SELECT id, submitted_at AS prior_submitted_at FROM disbursements
         WHERE status = 'pending' AND next_check_at <= now()
           AND (lease_until IS NULL OR lease_until < now())
           AND (${onlyIds ?? null}::uuid[] IS NULL OR id = ANY(${onlyIds ?? null}::uuid[]))
         ORDER BY next_check_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE disbursements d SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now(),
               -- Held for an approval that is due: its approval expired (no decision came in time).
               approval = CASE WHEN d.approval = 'awaiting' THEN 'expired' ELSE d.approval END,
               approval_decided_at = CASE WHEN d.approval = 'awaiting' THEN now() ELSE d.approval_decided_at END,
               -- A payout rejected or expired is never sent: no submission, no payout.send (it fails unsent).
               submitted_at = CASE WHEN ${UNSENT_APPROVAL} THEN d.submitted_at ELSE COALESCE(d.submitted_at, now()) END,
               submit_attempts = d.submit_attempts + (d.submitted_at IS NULL AND NOT ${UNSENT_APPROVAL})::int
          FROM due
         WHERE d.id = due.id
        RETURNING d.*, due.prior_submitted_at, (SELECT m.name FROM merchants m WHERE m.id = d.merchant_id) AS merchant_name,
                  (SELECT b.sandbox_received FROM balances b WHERE b.merchant_id = d.merchant_id) AS merchant_sandbox_received),
      sent AS (
        INSERT INTO outbox (topic, key, payload, headers)
        SELECT ${send.topic}::text, c.merchant_id::text,
               jsonb_strip_nulls(jsonb_build_object(
                 'type', ${send.type}::text, 'commandId', ${send.commandIdPrefix}::text || c.id::text, 'merchantId', c.merchant_id,
                 'logId', c.log_id, 'issuedAt', to_char(c.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'payoutId', c.id::text, 'rail', ${send.rail}::text)),
               jsonb_strip_nulls(jsonb_build_object('message-id', ${send.commandIdPrefix}::text || c.id::text, 'log-id', c.log_id))
          FROM claimed c
         WHERE c.prior_submitted_at IS NULL AND NOT (${rail.live}::boolean AND COALESCE(c.merchant_sandbox_received, 0) > 0)
           AND c.approval IS DISTINCT FROM 'rejected' AND c.approval IS DISTINCT FROM 'expired'
         ORDER BY c.id
        RETURNING id),
      upcoming AS (SELECT min(next_check_at) AS at FROM disbursements WHERE status = 'pending' AND next_check_at > now())
      SELECT claimed.*, upcoming.at AS upcoming_check_at, (SELECT count(*) FROM sent) AS sent_count
        FROM upcoming LEFT JOIN claimed ON true`);
    const nextDueAt = (rows[0]?.upcoming_check_at as Date | null | undefined) ?? null;
    const claimed = rows
      .filter((r) => r.id !== null)
      .map(
        ({
          upcoming_check_at: _upcoming,
          sent_count: _sent,
          prior_submitted_at,
          merchant_name,
          merchant_sandbox_received,
          ...r
        }) => ({
          ...fromRow<Disbursement>(r),
          priorSubmittedAt: prior_submitted_at as Date | null,
          merchantName: merchant_name as string,
          merchantSandboxReceived: (merchant_sandbox_received as bigint | null) ?? 0n,
          rail: rail.name,
        }),
      );
    return { claimed, nextDueAt };
  }

  /**
   * Records a batch's outcomes in one statement (so one transaction): rechecks get their next
   * look and let the lease go; finals move pending -> success | failed with, for exactly the rows
   * this statement moved, the outcome event, the ledger's command (on failure the refund, on
   * success `payout.confirm` over the disbursement's rail: in transit -> the bank's cash), and
   * the merchant's callback (the webhook delivery row is the callback's outbox, as for pay-ins:
   * the workers' dispatcher sends it). A disbursement already final (finalised elsewhere
   * meanwhile) is left alone and gets no second event, refund or callback. An outcome
   * `resubmitted` (submitted again after the rail had no record of it) counts one more
   * submission. Returns the ids this call finalised.
   */
  async complete(batch: PayoutOutcome[]): Promise<Set<string>> {
    if (batch.length === 0) return new Set();
    // Rows locked in id order: two workers completing overlapping batches (a lapsed lease) wait, never deadlock.
    const outcomes = [...batch].sort((a, b) =>
      a.disbursement.id < b.disbursement.id ? -1 : a.disbursement.id > b.disbursement.id ? 1 : 0,
    );
    const occurredAt = new Date();
    const messages: { disbursementId: string; message: OutboxMessage }[] = [];
    const callbacks: { disbursementId: string; delivery: NewDelivery }[] = [];
    for (const o of outcomes) {
      if (o.kind === 'recheck') continue;
      const command = o.kind === 'failed' ? refundCommand(o) : confirmCommand(o);
      messages.push({ disbursementId: o.disbursement.id, message: ledgerCommandMessage(command) });
      messages.push({ disbursementId: o.disbursement.id, message: payoutEventMessage(announcement(o), occurredAt) });
      callbacks.push({
        disbursementId: o.disbursement.id,
        delivery: payoutCallbackDelivery(announcement(o), occurredAt),
      });
    }
    const [row] = await this.db.query<{ finalised: string[] | null }>(sql`
      WITH input AS (
        SELECT * FROM unnest(${outcomes.map((o) => o.disbursement.id)}::uuid[], ${outcomes.map((o) => o.kind)}::text[], ${outcomes.map((o) => o.at)}::timestamptz[],
                             ${outcomes.map((o) => o.railReference ?? null)}::text[], ${outcomes.map((o) => (o.kind === 'failed' ? o.reason : null))}::text[],
                             ${outcomes.map((o) => (o.kind === 'failed' ? o.code : null))}::text[],
                             ${outcomes.map((o) => (o.resubmitted ? 1 : 0))}::int[])
          AS i(id, kind, at, rail_reference, reason, code, resubmitted)),
      rechecked AS (
        UPDATE disbursements d SET next_check_at = i.at, lease_until = NULL, rail_reference = COALESCE(i.rail_reference, d.rail_reference),
                                   submit_attempts = d.submit_attempts + i.resubmitted, updated_at = now()
          FROM input i
         WHERE i.kind = 'recheck' AND d.id = i.id AND d.status = 'pending'
        RETURNING d.id),
      finalised AS (
        UPDATE disbursements d
           SET status = i.kind,
               success_at = CASE WHEN i.kind = 'success' THEN i.at END,
               failed_at = CASE WHEN i.kind = 'failed' THEN i.at END,
               failure_reason = i.reason,
               failure_code = i.code,
               rail_reference = COALESCE(i.rail_reference, d.rail_reference), lease_until = NULL,
               submit_attempts = d.submit_attempts + i.resubmitted, updated_at = now()
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
        RETURNING id),
      called AS (
        INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
        SELECT gen_random_uuid(), c.event_id, c.event_type, c.merchant_id, c.disbursement_id, c.url, c.body, 'pending', now(), c.log_id, now(), now()
          FROM unnest(${callbacks.map((c) => c.disbursementId)}::uuid[], ${callbacks.map((c) => c.delivery.eventId)}::text[], ${callbacks.map((c) => c.delivery.eventType)}::text[],
                      ${callbacks.map((c) => c.delivery.merchantId)}::int[], ${callbacks.map((c) => c.delivery.url)}::text[], ${callbacks.map((c) => c.delivery.body)}::text[],
                      ${callbacks.map((c) => c.delivery.logId ?? null)}::text[])
            AS c(disbursement_id, event_id, event_type, merchant_id, url, body, log_id)
         -- a batch row without notifyUrl (url ''): its event logged, no delivery (webhook_deliveries_record_event)
         WHERE c.disbursement_id IN (SELECT id FROM finalised)
         ORDER BY c.merchant_id -- each merchant's event counter locked in one order by every writer: no deadlock
        ON CONFLICT (event_id) DO NOTHING
        RETURNING id)
      SELECT (SELECT array_agg(id::text) FROM finalised) AS finalised, (SELECT count(*) FROM rechecked) AS rechecked,
             (SELECT count(*) FROM written) AS written, (SELECT count(*) FROM called) AS called`);
    return new Set(row?.finalised ?? []);
  }
}

/**
 * A claimed row's approval (before this claim) that means it is never sent: rejected, awaiting
 * (then due only at its expiry) or already expired. Its `approval` as returned says which.
 */
const UNSENT_APPROVAL = sqlText(`COALESCE(d.approval IN ('awaiting', 'rejected', 'expired'), false)`);

/** A disbursement claimed for one round, with what the round needs beside the row. */
export type ClaimedDisbursement = Disbursement & {
  /** When it was first submitted to the rail, if before this claim (then the rail is asked before any new submission) */
  priorSubmittedAt: Date | null;
  /** The merchant's name, as its callback shows it */
  merchantName: string;
  /** The sandbox money the merchant has received (balances.sandbox_received): none of its money goes over a live rail */
  merchantSandboxReceived: bigint;
  /** The rail it is sent over, by name (BankRail.name): the books' payout.send and payout.confirm name it */
  rail: string;
};

/** The rail a claim sends over: its name (the books') and whether it is live (no sandbox money over it). */
export interface ClaimRail {
  name: string;
  live: boolean;
}

export interface ClaimedBatch {
  claimed: ClaimedDisbursement[];
  /** The earliest future recheck of any pending disbursement; null when none */
  nextDueAt: Date | null;
}

/** What one round learnt about a disbursement from the rail; `resubmitted`: sent to the rail again this round. */
export type PayoutOutcome = (
  | { kind: 'recheck'; disbursement: ClaimedDisbursement; at: Date; railReference?: string | null }
  | { kind: 'success'; disbursement: ClaimedDisbursement; at: Date; railReference: string }
  | {
      kind: 'failed';
      disbursement: ClaimedDisbursement;
      at: Date;
      railReference: string | null;
      reason: string;
      /** PayoutFailureCode */
      code: string;
    }
) & { resubmitted?: boolean };

type FinalOutcome = Exclude<PayoutOutcome, { kind: 'recheck' }>;

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

/** A succeeded disbursement: the bank confirmed it (the books: its rail's in-transit -> the bank's cash). */
function confirmCommand(o: Extract<PayoutOutcome, { kind: 'success' }>): LedgerCommand {
  const d = o.disbursement;
  return {
    type: 'payout.confirm',
    commandId: ledgerCommandId.payoutConfirm(d.id),
    merchantId: d.merchantId,
    logId: d.logId ?? undefined,
    issuedAt: o.at.toISOString(),
    payoutId: d.id,
    rail: d.rail,
  };
}

/**
 * The parts of the `payout.send` command the claim statement assembles per row (SendPayoutCommand,
 * as ledgerCommandMessage writes it): the id is ledgerCommandId.payoutSend's, whatever it prefixes.
 */
function sendCommandTemplate(rail: string) {
  const commandIdPrefix = ledgerCommandId.payoutSend('');
  return { topic: Topic.LedgerCommands, type: 'payout.send' as const, commandIdPrefix, rail };
}

/** A final outcome as announced (payout event, callback). */
function announcement(o: FinalOutcome): PayoutAnnouncement {
  return o.kind === 'success'
    ? { status: 'success', disbursement: o.disbursement, at: o.at }
    : { status: 'failed', disbursement: o.disbursement, at: o.at, reason: o.reason, code: o.code };
}
