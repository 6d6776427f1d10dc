import type { LedgerCommand, LedgerEventMessage } from '@pay/contracts';

/** What the ledger publishes about a decision (ledger.events), keyed by merchant. */
/** What a decision's message says beyond the command's own facts. */
export type LedgerMessageBody = Omit<
  LedgerEventMessage,
  'commandId' | 'commandType' | 'merchantId' | 'logId' | 'occurredAt'
>;

export function ledgerMessage(command: LedgerCommand, now: Date, body: LedgerMessageBody): LedgerEventMessage {
  return {
    ...body,
    commandId: command.commandId,
    commandType: command.type,
    merchantId: command.merchantId,
    logId: command.logId,
    occurredAt: now.toISOString(),
  };
}

/** `message-id` lets consumers deduplicate a redelivered decision. */
export function ledgerHeaders(command: LedgerCommand, kind: 'event' | 'rejection'): Record<string, string> {
  return { 'message-id': `${command.commandId}:${kind}`, ...(command.logId ? { 'log-id': command.logId } : {}) };
}

/** The business object a command is about: one event of a type per reference and merchant. */
export function referenceOf(command: LedgerCommand): string {
  switch (command.type) {
    case 'payin.record':
      return command.payinId;
    case 'settlement.credit':
      return command.settlementId;
    case 'payout.debit':
    case 'payout.refund':
    case 'payout.send':
    case 'payout.confirm':
    case 'payout.reverse':
      return command.payoutId;
    case 'acquirer.settle':
      return `${command.acquirer}:${command.settlementRef}`;
    case 'rail.fee':
      return `${command.rail}:${command.feeRef}`;
    case 'books.adjust':
      return command.adjustmentId;
    case 'payin.refund':
    case 'payin.refund_return':
      return command.refundId;
  }
}
