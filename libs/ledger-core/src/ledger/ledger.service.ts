import { type LedgerCommand, type LedgerEventMessage, type LedgerOutcome, Topic } from '@pay/contracts';
import { Prisma, type PrismaClient, type TransactionClient } from '@pay/persistence';
import { creditSettlement } from '../handlers/credit-settlement.handler';
import { debitPayout } from '../handlers/debit-payout.handler';
import { type Decision, type HandlerContext, reject, RejectionReason } from '../handlers/decision';
import { recordPayin } from '../handlers/record-payin.handler';
import { refundPayout } from '../handlers/refund-payout.handler';

type Handler = (ctx: HandlerContext, cmd: never) => Promise<Decision>;

const HANDLERS: Record<LedgerCommand['type'], Handler> = {
  'payin.record': recordPayin,
  'settlement.credit': creditSettlement,
  'payout.debit': debitPayout,
  'payout.refund': refundPayout,
};

/**
 * The single writer of money. Each command is applied in one Postgres transaction:
 * lock the merchant's balance row (serialising that merchant), answer a command seen before
 * with its recorded outcome, let the handler decide, append the event with the next
 * per-merchant sequence number, update the projection, record the decision and write the
 * outbox row that announces it.
 */
export class LedgerService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async apply(command: LedgerCommand): Promise<LedgerOutcome> {
    try {
      return await this.prisma.$transaction((tx) => this.applyIn(tx, command), {
        isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted,
        timeout: 15_000,
        maxWait: 10_000,
      });
    } catch (err) {
      // Two deliveries of one command raced past the lock on a merchant created mid-flight,
      // or an event for the same reference was written concurrently: the stored outcome wins.
      const prior = await this.priorOutcome(this.prisma, command.commandId);
      if (prior) return prior;
      throw err;
    }
  }

  private async applyIn(tx: TransactionClient, command: LedgerCommand): Promise<LedgerOutcome> {
    const [balance] = await tx.$queryRaw<{ available: bigint; pending: bigint; last_seq: bigint }[]>`
      SELECT available, pending, last_seq FROM balances WHERE merchant_id = ${command.merchantId} FOR UPDATE`;

    const prior = await this.priorOutcome(tx, command.commandId);
    if (prior) return prior;

    if (!balance) return this.record(tx, command, reject(RejectionReason.MerchantUnknown, { merchantId: String(command.merchantId) }), null);

    const ctx: HandlerContext = { tx, merchantId: command.merchantId, balance: { available: balance.available, pending: balance.pending } };
    let decision = await HANDLERS[command.type](ctx, command as never);
    if (decision.kind === 'event') {
      const existing = await tx.ledgerEvent.findUnique({
        where: { merchantId_type_reference: { merchantId: command.merchantId, type: decision.eventType, reference: decision.reference } },
        select: { commandId: true },
      });
      if (existing) decision = reject(RejectionReason.DuplicateReference, { reference: decision.reference, commandId: existing.commandId });
    }
    return this.record(tx, command, decision, balance);
  }

  private async record(
    tx: TransactionClient,
    command: LedgerCommand,
    decision: Decision,
    balance: { available: bigint; pending: bigint; last_seq: bigint } | null,
  ): Promise<LedgerOutcome> {
    const now = this.clock();
    if (decision.kind === 'rejection' || !balance) {
      const reason = decision.kind === 'rejection' ? decision.reason : RejectionReason.MerchantUnknown;
      const detail = decision.kind === 'rejection' ? decision.detail : {};
      const outcome: LedgerOutcome = { outcome: 'rejected', commandId: command.commandId, reason, detail };
      await tx.ledgerCommand.create({
        data: { commandId: command.commandId, merchantId: command.merchantId, type: command.type, outcome: 'rejected', reason, result: outcome as object },
      });
      await this.announce(tx, command, { kind: 'rejection', reference: referenceOf(command), reason, payload: detail }, now);
      return outcome;
    }

    const seq = balance.last_seq + 1n;
    const available = balance.available + decision.availableDelta;
    const pending = balance.pending + decision.pendingDelta;
    const event = await tx.ledgerEvent.create({
      data: {
        merchantId: command.merchantId,
        seq,
        commandId: command.commandId,
        type: decision.eventType,
        reference: decision.reference,
        availableDelta: decision.availableDelta,
        pendingDelta: decision.pendingDelta,
        payload: decision.payload as object,
        logId: command.logId,
        occurredAt: now,
      },
      select: { id: true },
    });
    await tx.balance.update({ where: { merchantId: command.merchantId }, data: { available, pending, lastSeq: seq, updatedAt: now } });
    await decision.project?.(tx, event.id);
    const outcome: LedgerOutcome = {
      outcome: 'applied',
      commandId: command.commandId,
      eventId: event.id.toString(),
      seq: seq.toString(),
      balance: { available: available.toString(), pending: pending.toString() },
    };
    await tx.ledgerCommand.create({
      data: { commandId: command.commandId, merchantId: command.merchantId, type: command.type, outcome: 'applied', eventId: event.id, result: outcome as object },
    });
    await this.announce(
      tx,
      command,
      {
        kind: 'event',
        eventId: event.id.toString(),
        eventType: decision.eventType,
        seq: seq.toString(),
        reference: decision.reference,
        availableDelta: decision.availableDelta.toString(),
        pendingDelta: decision.pendingDelta.toString(),
        payload: decision.payload,
      },
      now,
    );
    return outcome;
  }

  private async announce(
    tx: TransactionClient,
    command: LedgerCommand,
    body: Omit<LedgerEventMessage, 'commandId' | 'commandType' | 'merchantId' | 'logId' | 'occurredAt'>,
    now: Date,
  ): Promise<void> {
    const message: LedgerEventMessage = {
      ...body,
      commandId: command.commandId,
      commandType: command.type,
      merchantId: command.merchantId,
      logId: command.logId,
      occurredAt: now.toISOString(),
    };
    await tx.outbox.create({
      data: {
        topic: Topic.LedgerEvents,
        key: String(command.merchantId),
        payload: message as object,
        headers: { 'message-id': `${command.commandId}:${body.kind}`, ...(command.logId ? { 'log-id': command.logId } : {}) },
      },
    });
  }

  private async priorOutcome(db: TransactionClient | PrismaClient, commandId: string): Promise<LedgerOutcome | null> {
    const prior = await db.ledgerCommand.findUnique({ where: { commandId }, select: { result: true } });
    return prior ? (prior.result as unknown as LedgerOutcome) : null;
  }
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
