import { type LedgerCommand, type LedgerEventMessage, LedgerEventType, type LedgerOutcome, Topic } from '@pay/contracts';
import type { Pool } from 'pg';
import { inTransaction, sql, type SqlClient, sqlClient } from '@pay/persistence';
import { creditSettlement } from '../handlers/credit-settlement.handler';
import { debitPayout } from '../handlers/debit-payout.handler';
import { type Decision, type HandlerContext, reject, RejectionReason } from '../handlers/decision';
import { recordPayin } from '../handlers/record-payin.handler';
import { refundPayout } from '../handlers/refund-payout.handler';

type Handler = (ctx: HandlerContext, cmd: never) => Promise<Decision>;

/** Each command type has one handler and produces at most one event of one type about one reference. */
const COMMANDS: Record<LedgerCommand['type'], { handler: Handler; eventType: LedgerEventType }> = {
  'payin.record': { handler: recordPayin, eventType: LedgerEventType.PayinRecorded },
  'settlement.credit': { handler: creditSettlement, eventType: LedgerEventType.SettlementCredited },
  'payout.debit': { handler: debitPayout, eventType: LedgerEventType.PayoutDebited },
  'payout.refund': { handler: refundPayout, eventType: LedgerEventType.PayoutRefunded },
};

interface LockedBalance {
  available: bigint;
  pending: bigint;
  last_seq: bigint;
  next_event_id: bigint;
}

/**
 * The single writer of money. Each command is applied in one Postgres transaction of four
 * statements: lock the merchant's balance row (serialising that merchant), look up a prior
 * decision for the command id and a prior event for its reference, then write the event,
 * the projection, the decision record and the outbox row together.
 * Lock first, check second: a concurrent delivery of the same command waits on the lock and
 * then sees the first one's decision.
 */
export class LedgerService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async apply(command: LedgerCommand): Promise<LedgerOutcome> {
    try {
      return await inTransaction(this.pool, (tx) => this.applyIn(tx, command), { isolation: 'READ COMMITTED', timeoutMs: 15_000 });
    } catch (err) {
      // The unique command id lost a race (e.g. a merchant without a balance row yet): the stored outcome wins.
      const prior = await this.priorOutcome(command.commandId);
      if (prior) return prior;
      throw err;
    }
  }

  private async applyIn(tx: SqlClient, command: LedgerCommand): Promise<LedgerOutcome> {
    // The event id is drawn up front so the decision record and the outbox row can carry it in one write.
    const [balance] = await tx.query<LockedBalance>(sql`
      SELECT available, pending, last_seq, nextval('ledger_events_id_seq') AS next_event_id
        FROM balances WHERE merchant_id = ${command.merchantId} FOR UPDATE`);
    const { handler, eventType } = COMMANDS[command.type];
    const reference = referenceOf(command);
    const [{ prior, existing }] = await tx.query<{ prior: LedgerOutcome | null; existing: string | null }>(sql`
      SELECT (SELECT result FROM ledger_commands WHERE command_id = ${command.commandId}) AS prior,
             (SELECT command_id FROM ledger_events
               WHERE merchant_id = ${command.merchantId} AND type = ${eventType} AND reference = ${reference}) AS existing`);
    if (prior) return prior;

    const now = this.clock();
    if (!balance) return this.recordRejection(tx, command, reject(RejectionReason.MerchantUnknown, { merchantId: String(command.merchantId) }), now);
    if (existing) return this.recordRejection(tx, command, reject(RejectionReason.DuplicateReference, { reference, commandId: existing }), now);

    const ctx: HandlerContext = { tx, merchantId: command.merchantId, balance: { available: balance.available, pending: balance.pending } };
    const decision = await handler(ctx, command as never);
    if (decision.kind === 'rejection') return this.recordRejection(tx, command, decision, now);
    return this.recordEvent(tx, command, decision, balance, now);
  }

  private async recordEvent(
    tx: SqlClient,
    command: LedgerCommand,
    decision: Extract<Decision, { kind: 'event' }>,
    balance: LockedBalance,
    now: Date,
  ): Promise<LedgerOutcome> {
    const eventId = balance.next_event_id;
    const seq = balance.last_seq + 1n;
    const available = balance.available + decision.availableDelta;
    const pending = balance.pending + decision.pendingDelta;
    const outcome: LedgerOutcome = {
      outcome: 'applied',
      commandId: command.commandId,
      eventId: eventId.toString(),
      seq: seq.toString(),
      balance: { available: available.toString(), pending: pending.toString() },
    };
    const message = this.message(command, now, {
      kind: 'event',
      eventId: eventId.toString(),
      eventType: decision.eventType,
      seq: seq.toString(),
      reference: decision.reference,
      availableDelta: decision.availableDelta.toString(),
      pendingDelta: decision.pendingDelta.toString(),
      payload: decision.payload,
    });
    await tx.execute(sql`
      WITH event AS (
        INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, payload, log_id, occurred_at)
        VALUES (${eventId}, ${command.merchantId}, ${seq}, ${command.commandId}, ${decision.eventType}, ${decision.reference},
                ${decision.availableDelta}, ${decision.pendingDelta}, ${JSON.stringify(decision.payload)}::jsonb, ${command.logId ?? null}, ${now})
      ), projection AS (
        UPDATE balances SET available = ${available}, pending = ${pending}, last_seq = ${seq}, updated_at = ${now}
         WHERE merchant_id = ${command.merchantId}
      ), decided AS (
        INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result, decided_at)
        VALUES (${command.commandId}, ${command.merchantId}, ${command.type}, 'applied', ${eventId}, ${JSON.stringify(outcome)}::jsonb, ${now})
      )
      INSERT INTO outbox (topic, key, payload, headers, created_at)
      VALUES (${Topic.LedgerEvents}, ${String(command.merchantId)}, ${JSON.stringify(message)}::jsonb, ${JSON.stringify(headersOf(command, 'event'))}::jsonb, ${now})`);
    // The event row exists now (a data-modifying CTE runs even when unreferenced), so projections may point at it.
    await decision.project?.(tx, eventId);
    return outcome;
  }

  private async recordRejection(
    tx: SqlClient,
    command: LedgerCommand,
    decision: Extract<Decision, { kind: 'rejection' }>,
    now: Date,
  ): Promise<LedgerOutcome> {
    const outcome: LedgerOutcome = { outcome: 'rejected', commandId: command.commandId, reason: decision.reason, detail: decision.detail };
    const message = this.message(command, now, { kind: 'rejection', reference: referenceOf(command), reason: decision.reason, payload: decision.detail });
    await tx.execute(sql`
      WITH decided AS (
        INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, reason, result, decided_at)
        VALUES (${command.commandId}, ${command.merchantId}, ${command.type}, 'rejected', ${decision.reason}, ${JSON.stringify(outcome)}::jsonb, ${now})
      )
      INSERT INTO outbox (topic, key, payload, headers, created_at)
      VALUES (${Topic.LedgerEvents}, ${String(command.merchantId)}, ${JSON.stringify(message)}::jsonb, ${JSON.stringify(headersOf(command, 'rejection'))}::jsonb, ${now})`);
    await decision.project?.(tx);
    return outcome;
  }

  private message(
    command: LedgerCommand,
    now: Date,
    body: Omit<LedgerEventMessage, 'commandId' | 'commandType' | 'merchantId' | 'logId' | 'occurredAt'>,
  ): LedgerEventMessage {
    return { ...body, commandId: command.commandId, commandType: command.type, merchantId: command.merchantId, logId: command.logId, occurredAt: now.toISOString() };
  }

  private async priorOutcome(commandId: string): Promise<LedgerOutcome | null> {
    const [row] = await sqlClient(this.pool).query<{ result: LedgerOutcome }>(sql`SELECT result FROM ledger_commands WHERE command_id = ${commandId}`);
    return row?.result ?? null;
  }
}

function headersOf(command: LedgerCommand, kind: 'event' | 'rejection'): Record<string, string> {
  return { 'message-id': `${command.commandId}:${kind}`, ...(command.logId ? { 'log-id': command.logId } : {}) };
}

function referenceOf(command: LedgerCommand): string {
  switch (command.type) {
    case 'payin.record':
      return command.payinId;
    case 'settlement.credit':
      return command.settlementId;
    case 'payout.debit':
    case 'payout.refund':
      return command.payoutId;
  }
}
