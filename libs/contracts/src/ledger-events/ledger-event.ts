import type { LedgerCommandType } from '../ledger-commands/ledger-command';

/** Event types in ledger_events. Never rename: they are stored history. */
export enum LedgerEventType {
  PayinRecorded = 'payin.recorded',
  SettlementCredited = 'settlement.credited',
  PayoutDebited = 'payout.debited',
  PayoutRefunded = 'payout.refunded',
}

/** Published on Topic.LedgerEvents (value JSON) for every command the ledger decides. */
export interface LedgerEventMessage {
  /** `event` for an applied command, `rejection` for a refused one */
  kind: 'event' | 'rejection';
  commandId: string;
  commandType: LedgerCommandType;
  merchantId: number;
  /** Present when kind = event */
  eventId?: string;
  eventType?: LedgerEventType;
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
