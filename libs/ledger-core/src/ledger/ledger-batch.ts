import { type LedgerCommand, LedgerEventType, type LedgerOutcome, PLATFORM_MERCHANT_ID } from '@pay/contracts';
import { Account, type Posting } from '@pay/domain';
import { sql, type SqlClient } from '@pay/persistence';
import { creditSettlement } from '../handlers/credit-settlement.handler';
import { debitPayout } from '../handlers/debit-payout.handler';
import { type Decision, type HandlerContext, reject, RejectionReason } from '../handlers/decision';
import { recordPayin } from '../handlers/record-payin.handler';
import { confirmPayout, reversePayout, sendPayout } from '../handlers/payout-books.handler';
import { adjustBooks, railFee, settleAcquirer } from '../handlers/platform-books.handler';
import { refundPayout } from '../handlers/refund-payout.handler';
import { refundPayin, returnPayinRefund } from '../handlers/refund-payin.handler';
import { ledgerHeaders, ledgerMessage, type LedgerMessageBody, referenceOf } from './ledger-messages';
import { type BalanceRow, LedgerWrites } from './ledger-writes';

type Handler = (ctx: HandlerContext, cmd: never) => Promise<Decision>;

/**
 * Each command type has one handler and produces at most one event of one type about one
 * reference (or, `eventType` null, at most one platform entry, whose handler finds a repeat
 * itself). `reads`: the handler queries rows earlier commands of the batch may have written
 * (pay-ins, a debit), so what the batch holds is written before it runs.
 */
const COMMANDS: Record<LedgerCommand['type'], { handler: Handler; eventType: LedgerEventType | null; reads: boolean }> =
  {
    'payin.record': { handler: recordPayin, eventType: LedgerEventType.PayinRecorded, reads: true },
    'settlement.credit': { handler: creditSettlement, eventType: LedgerEventType.SettlementCredited, reads: true },
    'payout.debit': { handler: debitPayout, eventType: LedgerEventType.PayoutDebited, reads: false },
    'payout.refund': { handler: refundPayout, eventType: LedgerEventType.PayoutRefunded, reads: true },
    'payout.reverse': { handler: reversePayout, eventType: LedgerEventType.PayoutReversed, reads: true },
    'payout.send': { handler: sendPayout, eventType: null, reads: true },
    'payout.confirm': { handler: confirmPayout, eventType: null, reads: true },
    'acquirer.settle': { handler: settleAcquirer, eventType: null, reads: true },
    'rail.fee': { handler: railFee, eventType: null, reads: true },
    // A merchant's adjustment is its event; the platform's (merchant 0) an entry the handler checks for a repeat.
    'books.adjust': { handler: adjustBooks, eventType: LedgerEventType.BalanceAdjusted, reads: true },
    'payin.refund': { handler: refundPayin, eventType: LedgerEventType.PayinRefunded, reads: true },
    'payin.refund_return': { handler: returnPayinRefund, eventType: LedgerEventType.PayinRefundReturned, reads: true },
  };

/** Commands that may be the platform's own (merchant 0): no balance to lock or move. */
const PLATFORM_COMMANDS = new Set<LedgerCommand['type']>(['acquirer.settle', 'rail.fee', 'books.adjust']);
const PLATFORM_BALANCE: BalanceRow = { available: 0n, pending: 0n, sandboxReceived: 0n, lastSeq: 0n };

interface BatchState {
  priors: { command_id: string; result: LedgerOutcome }[];
  existing: { merchant_id: number; type: string; reference: string; command_id: string }[];
  event_ids: string[];
}

/**
 * Decides a batch of commands inside one transaction (group commit): the balance rows of every
 * merchant in the batch are locked first (in merchant order, so two batches never deadlock), then
 * prior decisions and existing events are read in one statement, then each command is decided
 * in order against the balance as the commands before it left it, and everything is written
 * at the end in one statement (ledger-writes.ts). A refusal is a decision like any other: it
 * is recorded and the batch goes on. Lock first, check second: a concurrent delivery of the
 * same command waits on the lock and then sees the first one's decision.
 */
export class LedgerBatch {
  private readonly balances = new Map<number, BalanceRow>();
  private readonly priors = new Map<string, LedgerOutcome>();
  /** `${merchantId}|${eventType}|${reference}` -> the command whose event it is */
  private readonly references = new Map<string, string>();
  private eventIds: bigint[] = [];
  private readonly writes: LedgerWrites;

  constructor(
    private readonly tx: SqlClient,
    private readonly now: Date,
  ) {
    this.writes = new LedgerWrites(now);
  }

  async apply(commands: LedgerCommand[]): Promise<LedgerOutcome[]> {
    await this.load(commands);
    const outcomes: LedgerOutcome[] = [];
    for (const command of commands) {
      let outcome = this.priors.get(command.commandId);
      if (!outcome) {
        outcome = await this.decide(command);
        // The same command twice in one batch (a republished outbox row) is decided once.
        this.priors.set(command.commandId, outcome);
      }
      outcomes.push(outcome);
    }
    await this.writes.flush(this.tx);
    return outcomes;
  }

  private async load(commands: LedgerCommand[]): Promise<void> {
    const merchantIds = [...new Set(commands.map((c) => c.merchantId))].sort((a, b) => a - b);
    const locked = await this.tx.query<{
      merchant_id: number;
      available: bigint;
      pending: bigint;
      sandbox_received: bigint;
      last_seq: bigint;
    }>(sql`
      SELECT merchant_id, available, pending, sandbox_received, last_seq FROM balances
       WHERE merchant_id = ANY(${merchantIds}::int[]) ORDER BY merchant_id FOR UPDATE`);
    for (const b of locked)
      this.balances.set(b.merchant_id, {
        available: b.available,
        pending: b.pending,
        sandboxReceived: b.sandbox_received,
        lastSeq: b.last_seq,
      });

    // Event ids are drawn up front so each decision record and outbox row carries its event's id in the one write.
    const [state] = await this.tx.query<BatchState>(sql`
      SELECT
        (SELECT coalesce(json_agg(json_build_object('command_id', c.command_id, 'result', c.result)), '[]'::json)
           FROM ledger_commands c WHERE c.command_id = ANY(${commands.map((c) => c.commandId)}::text[])) AS priors,
        (SELECT coalesce(json_agg(json_build_object('merchant_id', e.merchant_id, 'type', e.type, 'reference', e.reference, 'command_id', e.command_id)), '[]'::json)
           FROM unnest(${commands.map((c) => c.merchantId)}::int[], ${commands.map((c) => COMMANDS[c.type].eventType ?? '')}::text[], ${commands.map(referenceOf)}::text[])
             AS r(merchant_id, type, reference)
           JOIN ledger_events e ON e.merchant_id = r.merchant_id AND e.type = r.type AND e.reference = r.reference) AS existing,
        ARRAY(SELECT nextval('ledger_events_id_seq')::text FROM generate_series(1, ${commands.length}::int)) AS event_ids`);
    for (const p of state.priors) this.priors.set(p.command_id, p.result);
    for (const e of state.existing) this.references.set(referenceKey(e.merchant_id, e.type, e.reference), e.command_id);
    this.eventIds = state.event_ids.map((id) => BigInt(id));
  }

  private async decide(command: LedgerCommand): Promise<LedgerOutcome> {
    const platform = command.merchantId === PLATFORM_MERCHANT_ID && PLATFORM_COMMANDS.has(command.type);
    const balance = platform ? PLATFORM_BALANCE : this.balances.get(command.merchantId);
    if (!balance)
      return this.rejection(
        command,
        reject(RejectionReason.MerchantUnknown, { merchantId: String(command.merchantId) }),
      );
    const { handler, eventType, reads } = COMMANDS[command.type];
    const reference = referenceOf(command);
    const key = referenceKey(command.merchantId, eventType ?? command.type, reference);
    const existing = eventType && !platform ? this.references.get(key) : undefined;
    if (existing)
      return this.rejection(command, reject(RejectionReason.DuplicateReference, { reference, commandId: existing }));

    if (reads) await this.writes.flush(this.tx);
    const decision = await handler(
      {
        tx: this.tx,
        merchantId: command.merchantId,
        balance: { available: balance.available, pending: balance.pending },
      },
      command as never,
    );
    if (decision.kind === 'rejection') return this.rejection(command, decision);
    if (decision.kind === 'entry' && decision.postings.length === 0)
      return this.rejection(command, reject(RejectionReason.EntryInvalid, { problem: 'the entry moves nothing' }));
    if (decision.kind === 'entry') return this.entry(command, decision, balance, platform ? null : command.merchantId);
    this.references.set(key, command.commandId);
    return this.event(command, decision, balance);
  }

  private event(
    command: LedgerCommand,
    decision: Extract<Decision, { kind: 'event' }>,
    balance: BalanceRow,
  ): LedgerOutcome {
    const eventId = this.eventIds.shift();
    if (eventId === undefined) throw new Error('ledger batch drew fewer event ids than it has commands');
    checkMerchantPostings(command.merchantId, decision);
    const next: BalanceRow = {
      available: balance.available + decision.availableDelta,
      pending: balance.pending + decision.pendingDelta,
      sandboxReceived: balance.sandboxReceived + (decision.sandboxReceivedDelta ?? 0n),
      lastSeq: balance.lastSeq + 1n,
    };
    this.balances.set(command.merchantId, next);
    const outcome: LedgerOutcome = {
      outcome: 'applied',
      commandId: command.commandId,
      eventId: eventId.toString(),
      seq: next.lastSeq.toString(),
      balance: { available: next.available.toString(), pending: next.pending.toString() },
    };
    const { writes } = this;
    writes.event({
      id: eventId,
      merchantId: command.merchantId,
      seq: next.lastSeq,
      commandId: command.commandId,
      type: decision.eventType,
      reference: decision.reference,
      availableDelta: decision.availableDelta,
      pendingDelta: decision.pendingDelta,
      availableAfter: next.available,
      pendingAfter: next.pending,
      payload: decision.payload,
      logId: command.logId ?? null,
      postings: decision.postings,
    });
    writes.balance(command.merchantId, next);
    this.record(command, outcome, eventId, {
      kind: 'event',
      eventId: eventId.toString(),
      eventType: decision.eventType,
      seq: next.lastSeq.toString(),
      reference: decision.reference,
      availableDelta: decision.availableDelta.toString(),
      pendingDelta: decision.pendingDelta.toString(),
      payload: decision.payload,
    });
    writes.fund(decision.funding);
    // Runs once the event row is written, so projections may point at it.
    const project = decision.project;
    writes.project(project && (() => project(this.tx, eventId)));
    return outcome;
  }

  /**
   * A platform entry: booked like an event (an id of the events' sequence, its decision, its
   * message on ledger.events) but the merchant's balance and seq do not move.
   */
  private entry(
    command: LedgerCommand,
    decision: Extract<Decision, { kind: 'entry' }>,
    balance: BalanceRow,
    merchantId: number | null,
  ): LedgerOutcome {
    const entryId = this.eventIds.shift();
    if (entryId === undefined) throw new Error('ledger batch drew fewer event ids than it has commands');
    if (decision.postings.some((p) => p.account.startsWith('merchant:')))
      throw new Error(
        `${decision.entryType} ${decision.reference}: a platform entry cannot move a merchant's accounts`,
      );
    const outcome: LedgerOutcome = {
      outcome: 'applied',
      commandId: command.commandId,
      eventId: entryId.toString(),
      seq: balance.lastSeq.toString(),
      balance: { available: balance.available.toString(), pending: balance.pending.toString() },
    };
    const { writes } = this;
    writes.entry({
      id: entryId,
      commandId: command.commandId,
      type: decision.entryType,
      reference: decision.reference,
      merchantId,
      memo: decision.memo,
      postings: decision.postings,
    });
    this.record(command, outcome, null, {
      kind: 'event',
      eventId: entryId.toString(),
      eventType: decision.entryType,
      reference: decision.reference,
      payload: decision.memo,
    });
    return outcome;
  }

  private rejection(command: LedgerCommand, decision: Extract<Decision, { kind: 'rejection' }>): LedgerOutcome {
    const outcome: LedgerOutcome = {
      outcome: 'rejected',
      commandId: command.commandId,
      reason: decision.reason,
      detail: decision.detail,
    };
    this.record(command, outcome, null, {
      kind: 'rejection',
      reference: referenceOf(command),
      reason: decision.reason,
      payload: decision.detail,
    });
    const { writes } = this;
    writes.fund(decision.funding);
    const project = decision.project;
    writes.project(project && (() => project(this.tx)));
    return outcome;
  }

  /** The command's decision row and its message on ledger.events, whatever it decided. */
  private record(
    command: LedgerCommand,
    outcome: LedgerOutcome,
    eventId: bigint | null,
    body: LedgerMessageBody,
  ): void {
    const rejected = outcome.outcome === 'rejected';
    this.writes.decision({
      commandId: command.commandId,
      merchantId: command.merchantId,
      type: command.type,
      outcome: outcome.outcome,
      reason: rejected ? outcome.reason : null,
      eventId,
      result: outcome,
    });
    this.writes.message(
      String(command.merchantId),
      ledgerMessage(command, this.now, body),
      ledgerHeaders(command, rejected ? 'rejection' : 'event'),
    );
  }
}

/**
 * The books and the merchant's balance are one: an event's postings to the merchant's own
 * accounts are its deltas, credit-normal (a liability grows by a credit).
 */
function checkMerchantPostings(merchantId: number, decision: Extract<Decision, { kind: 'event' }>): void {
  const posted = (account: string) =>
    -decision.postings.filter((p: Posting) => p.account === account).reduce((sum, p) => sum + p.amount, 0n);
  const available = posted(Account.merchantAvailable(merchantId));
  const pending = posted(Account.merchantPending(merchantId));
  const others = decision.postings.filter(
    (p) => /^merchant:/.test(p.account) && !p.account.startsWith(`merchant:${merchantId}:`),
  );
  if (available !== decision.availableDelta || pending !== decision.pendingDelta || others.length > 0)
    throw new Error(
      `${decision.eventType} ${decision.reference}: postings move the merchant by ${available}/${pending}, the event by ${decision.availableDelta}/${decision.pendingDelta}`,
    );
}

function referenceKey(merchantId: number, type: string, reference: string): string {
  return `${merchantId}|${type}|${reference}`;
}
