import { Topic } from '@pay/contracts';
import { DISBURSEMENT_DECIDED_CHANNEL, sql, type SqlClient } from '@pay/persistence';
import type { Posting } from '@pay/domain';
import type { FundingMove } from '../handlers/decision';

export interface EventRow {
  id: bigint;
  merchantId: number;
  seq: bigint;
  commandId: string;
  type: string;
  reference: string;
  availableDelta: bigint;
  pendingDelta: bigint;
  /** The merchant's balance this event leaves (the list of balance movements reads it) */
  availableAfter: bigint;
  pendingAfter: bigint;
  payload: Record<string, unknown>;
  logId: string | null;
  /** The event's journal entry (decision 0049), on the event's own row */
  postings: Posting[];
}

/** A platform entry (decision 0049): moves no merchant's balance; merchantId is the merchant a payout's entry concerns, or null. */
export interface EntryRow {
  id: bigint;
  commandId: string;
  type: string;
  reference: string;
  merchantId: number | null;
  memo: Record<string, unknown>;
  postings: Posting[];
}

export interface DecisionRow {
  commandId: string;
  merchantId: number;
  type: string;
  outcome: 'applied' | 'rejected';
  reason: string | null;
  eventId: bigint | null;
  result: unknown;
}

export interface BalanceRow {
  available: bigint;
  pending: bigint;
  /** The nets of sandbox pay-ins recorded (decision 0047) */
  sandboxReceived: bigint;
  lastSeq: bigint;
}

/**
 * The rows a batch of decisions writes, kept until `flush`, which writes them all in one
 * statement of multi-row inserts and updates (unnest of arrays: the statement text, so its
 * prepared plan, is the same for any batch size): the events, the balance projections, the
 * decision records (each event carrying its journal entry's postings), the platform's own entries, what they moved per account
 * (account_deltas, folded into accounts apart: account-fold.ts), the outbox rows (in decision order, so per merchant in order), and the
 * disbursements the decisions move out of `funding`, each announced on commit with NOTIFY
 * `<id>:<pending|refused>` (the gateway answers the transfer from it without reading the row).
 * Projections a handler writes itself (pay-ins, settlements) run after, in decision order.
 */
export class LedgerWrites {
  private events: EventRow[] = [];
  private entries: EntryRow[] = [];
  private deltas = new Map<string, bigint>();
  private decisions: DecisionRow[] = [];
  private balances = new Map<number, BalanceRow>();
  private messages: { key: string; payload: unknown; headers: Record<string, string> }[] = [];
  private funding: FundingMove[] = [];
  private projections: (() => Promise<void>)[] = [];

  constructor(private readonly now: Date) {}

  event(row: EventRow): void {
    this.events.push(row);
    this.moved(row.postings);
  }

  entry(row: EntryRow): void {
    this.entries.push(row);
    this.moved(row.postings);
  }

  /** What the batch moved per platform account (a merchant's accounts are its balance, projected with the events). */
  private moved(postings: Posting[]): void {
    for (const p of postings)
      if (!p.account.startsWith('merchant:')) this.deltas.set(p.account, (this.deltas.get(p.account) ?? 0n) + p.amount);
  }

  decision(row: DecisionRow): void {
    this.decisions.push(row);
  }

  balance(merchantId: number, row: BalanceRow): void {
    this.balances.set(merchantId, row);
  }

  message(key: string, payload: unknown, headers: Record<string, string>): void {
    this.messages.push({ key, payload, headers });
  }

  fund(move: FundingMove | undefined): void {
    if (move) this.funding.push(move);
  }

  project(projection: (() => Promise<void>) | undefined): void {
    if (projection) this.projections.push(projection);
  }

  async flush(tx: SqlClient): Promise<void> {
    if (this.decisions.length === 0 && this.projections.length === 0) return;
    const { events, entries, decisions, messages, funding, projections } = this;
    const balances = [...this.balances];
    const deltas = [...this.deltas].filter(([, amount]) => amount !== 0n);
    this.events = [];
    this.entries = [];
    this.deltas = new Map();
    this.decisions = [];
    this.balances = new Map();
    this.messages = [];
    this.funding = [];
    this.projections = [];
    if (decisions.length > 0)
      await tx.query(this.statement(events, entries, deltas, balances, decisions, messages, funding));
    for (const projection of projections) await projection();
  }

  private statement(
    events: EventRow[],
    entries: EntryRow[],
    deltas: [string, bigint][],
    balances: [number, BalanceRow][],
    decisions: DecisionRow[],
    messages: { key: string; payload: unknown; headers: Record<string, string> }[],
    funding: FundingMove[],
  ) {
    const now = this.now;
    const text = (v: bigint) => v.toString();
    const json = (v: unknown) => JSON.stringify(v);
    // Each entry's postings as two array literals (accounts are codes of [a-z0-9:_-]; amounts integers).
    const accounts = (ps: Posting[]) => `{${ps.map((p) => `"${p.account}"`).join(',')}}`;
    const amounts = (ps: Posting[]) => `{${ps.map((p) => p.amount.toString()).join(',')}}`;
    return sql`
      WITH events AS (
        INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload, log_id, occurred_at, posting_accounts, posting_amounts)
        SELECT e.id, e.merchant_id, e.seq, e.command_id, e.type, e.reference, e.available_delta, e.pending_delta, e.available_after, e.pending_after, e.payload, e.log_id, ${now}::timestamptz,
               e.accounts::text[], e.amounts::bigint[]
          FROM unnest(${events.map((e) => text(e.id))}::bigint[], ${events.map((e) => e.merchantId)}::int[], ${events.map((e) => text(e.seq))}::bigint[],
                      ${events.map((e) => e.commandId)}::text[], ${events.map((e) => e.type)}::text[], ${events.map((e) => e.reference)}::text[],
                      ${events.map((e) => text(e.availableDelta))}::bigint[], ${events.map((e) => text(e.pendingDelta))}::bigint[],
                      ${events.map((e) => text(e.availableAfter))}::bigint[], ${events.map((e) => text(e.pendingAfter))}::bigint[],
                      ${events.map((e) => json(e.payload))}::jsonb[], ${events.map((e) => e.logId)}::text[],
                      ${events.map((e) => accounts(e.postings))}::text[], ${events.map((e) => amounts(e.postings))}::text[])
            AS e(id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload, log_id, accounts, amounts)
      ), entries AS (
        INSERT INTO platform_entries (id, command_id, type, reference, merchant_id, memo, occurred_at, posting_accounts, posting_amounts)
        SELECT j.id, j.command_id, j.type, j.reference, j.merchant_id, j.memo, ${now}::timestamptz, j.accounts::text[], j.amounts::bigint[]
          FROM unnest(${entries.map((e) => text(e.id))}::bigint[], ${entries.map((e) => e.commandId)}::text[], ${entries.map((e) => e.type)}::text[],
                      ${entries.map((e) => e.reference)}::text[], ${entries.map((e) => e.merchantId)}::int[], ${entries.map((e) => json(e.memo))}::jsonb[],
                      ${entries.map((e) => accounts(e.postings))}::text[], ${entries.map((e) => amounts(e.postings))}::text[])
            AS j(id, command_id, type, reference, merchant_id, memo, accounts, amounts)
      ), moved AS (
        INSERT INTO account_deltas (account, amount)
        SELECT * FROM unnest(${deltas.map(([a]) => a)}::text[], ${deltas.map(([, v]) => text(v))}::bigint[])
      ), projection AS (
        UPDATE balances b SET available = p.available, pending = p.pending, sandbox_received = p.sandbox_received,
                              last_seq = p.last_seq, updated_at = ${now}::timestamptz
          FROM unnest(${balances.map(([m]) => m)}::int[], ${balances.map(([, b]) => text(b.available))}::bigint[],
                      ${balances.map(([, b]) => text(b.pending))}::bigint[], ${balances.map(([, b]) => text(b.sandboxReceived))}::bigint[],
                      ${balances.map(([, b]) => text(b.lastSeq))}::bigint[])
            AS p(merchant_id, available, pending, sandbox_received, last_seq)
         WHERE b.merchant_id = p.merchant_id
      ), decided AS (
        INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, reason, event_id, result, decided_at)
        SELECT d.command_id, d.merchant_id, d.type, d.outcome, d.reason, d.event_id, d.result, ${now}::timestamptz
          FROM unnest(${decisions.map((d) => d.commandId)}::text[], ${decisions.map((d) => d.merchantId)}::int[], ${decisions.map((d) => d.type)}::text[],
                      ${decisions.map((d) => d.outcome)}::text[], ${decisions.map((d) => d.reason)}::text[],
                      ${decisions.map((d) => (d.eventId === null ? null : text(d.eventId)))}::bigint[], ${decisions.map((d) => json(d.result))}::jsonb[])
            AS d(command_id, merchant_id, type, outcome, reason, event_id, result)
      ), relayed AS (
        INSERT INTO outbox (topic, key, payload, headers, created_at)
        SELECT ${Topic.LedgerEvents}::text, o.key, o.payload, o.headers, ${now}::timestamptz
          FROM unnest(${messages.map((m) => m.key)}::text[], ${messages.map((m) => json(m.payload))}::jsonb[], ${messages.map((m) => json(m.headers))}::jsonb[])
            WITH ORDINALITY AS o(key, payload, headers, n)
         ORDER BY o.n
      ), funded AS (
        UPDATE disbursements d
           SET status = f.target,
               debited_at = CASE WHEN f.target = 'pending' THEN now() ELSE d.debited_at END,
               -- A payout awaiting its approval is due only when its approval expires (docs/payout-approvals.md).
               next_check_at = CASE WHEN f.target <> 'pending' THEN d.next_check_at
                                    WHEN d.approval = 'awaiting' THEN d.approval_expires_at ELSE now() END,
               refusal_reason = CASE WHEN f.target = 'refused' THEN 'INSUFFICIENT_BALANCE' ELSE d.refusal_reason END,
               updated_at = now()
          FROM unnest(${funding.map((f) => f.disbursementId)}::uuid[], ${funding.map((f) => f.to)}::text[]) AS f(id, target)
         WHERE d.id = f.id AND d.status = 'funding'
        RETURNING d.id::text AS id, f.target
      )
      SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}::text, id || ':' || target) FROM funded`;
  }
}
