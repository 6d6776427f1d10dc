import type { LedgerCommandType } from '../ledger-commands/ledger-command';

/** Event types in ledger_events. Never rename: they are stored history. */
export enum LedgerEventType {
  PayinRecorded = 'payin.recorded',
  SettlementCredited = 'settlement.credited',
  PayoutDebited = 'payout.debited',
  PayoutRefunded = 'payout.refunded',
  /** A successful payout returned by the beneficiary's bank: the merchant's money back */
  PayoutReversed = 'payout.reversed',
  /** A manual adjustment of the merchant's available, approved by two operators */
  BalanceAdjusted = 'balance.adjusted',
  /** A merchant's refund of a pay-in debited (from pending, available or both) */
  PayinRefunded = 'payin.refunded',
  /** A debited refund the acquirer refused: its money back */
  PayinRefundReturned = 'payin.refund_returned',
}

/**
 * Journal entries of the platform's own (decision 0049): booked by the ledger like events, but
 * they move no merchant's balance, so they are not merchant events (no seq, no balance movement).
 */
export enum BooksEntryType {
  PayoutSent = 'payout.sent',
  PayoutConfirmed = 'payout.confirmed',
  AcquirerSettled = 'acquirer.settled',
  RailFee = 'rail.fee',
  /** A manual adjustment between the platform's accounts */
  Adjustment = 'adjustment',
}

/** Published on Topic.LedgerEvents (value JSON) for every command the ledger decides. */
export interface LedgerEventMessage {
  /** `event` for an applied command, `rejection` for a refused one */
  kind: 'event' | 'rejection';
  commandId: string;
  commandType: LedgerCommandType;
  merchantId: number;
  /** Present when kind = event (a books entry: eventType is the entry's type, and no seq or deltas) */
  eventId?: string;
  eventType?: LedgerEventType | BooksEntryType;
  seq?: string;
  reference: string;
  availableDelta?: string;
  pendingDelta?: string;
  /** Present when kind = rejection */
  reason?: string;
  payload: Record<string, unknown>;
  logId?: string;
  occurredAt: string;
}

/** What the ledger answers for a command, first time or on redelivery. */
export type LedgerOutcome =
  | {
      outcome: 'applied';
      commandId: string;
      eventId: string;
      seq: string;
      balance: { available: string; pending: string };
    }
  | { outcome: 'rejected'; commandId: string; reason: string; detail: Record<string, string> };
