import type { BooksEntryType, LedgerEventType } from '@pay/contracts';
import type { BalanceState, Minor, Posting } from '@pay/domain';
import type { SqlClient } from '@pay/persistence';

/** A merchant disbursement the decision moves out of `funding` (written with the batch, in one statement). */
export interface FundingMove {
  disbursementId: string;
  to: 'pending' | 'refused';
}

/** What a command handler decides inside the ledger's transaction: one event, one platform entry, or a refusal. */
export type Decision =
  | {
      kind: 'event';
      eventType: LedgerEventType;
      reference: string;
      availableDelta: Minor;
      pendingDelta: Minor;
      /** Sandbox money received (a sandbox pay-in's net): balances.sandbox_received, which never decreases */
      sandboxReceivedDelta?: Minor;
      payload: Record<string, unknown>;
      /**
       * The event's journal entry (decision 0049): balanced postings, the merchant's accounts moving
       * exactly by availableDelta and pendingDelta (the batch checks it)
       */
      postings: Posting[];
      /** Projection writes beyond the balance (pay-in rows, settlements), run after the event is appended */
      project?: (tx: SqlClient, eventId: bigint) => Promise<void>;
      funding?: FundingMove;
    }
  | {
      /** A journal entry of the platform's own: the merchant's balance does not move (decision 0049) */
      kind: 'entry';
      entryType: BooksEntryType;
      reference: string;
      memo: Record<string, unknown>;
      postings: Posting[];
    }
  | {
      kind: 'rejection';
      reason: RejectionReason;
      detail: Record<string, string>;
      /** Projection writes that record the refusal (e.g. the disbursement becomes refused) */
      project?: (tx: SqlClient) => Promise<void>;
      funding?: FundingMove;
    };

export enum RejectionReason {
  InsufficientBalance = 'INSUFFICIENT_BALANCE',
  MerchantUnknown = 'MERCHANT_UNKNOWN',
  PayinNotFound = 'PAYIN_NOT_FOUND',
  PayinNotRecordable = 'PAYIN_NOT_RECORDABLE',
  PayinsNotSettleable = 'PAYINS_NOT_SETTLEABLE',
  PayoutNotDebited = 'PAYOUT_NOT_DEBITED',
  DuplicateReference = 'DUPLICATE_REFERENCE',
  /** The payout was already refunded or reversed (or confirmed, for a refund) */
  PayoutClosed = 'PAYOUT_CLOSED',
  /** An entry that cannot be booked as asked (unbalanced, outside the chart, totals that do not add up) */
  EntryInvalid = 'ENTRY_INVALID',
  /** A pay-in refund command its row does not match (not debiting, another amount), or a return of a refund not failed */
  RefundInvalid = 'REFUND_INVALID',
}

export interface HandlerContext {
  tx: SqlClient;
  merchantId: number;
  /** The merchant's balance after the commands before this one (in this batch or committed) */
  balance: BalanceState;
}

export type Rejection = Extract<Decision, { kind: 'rejection' }>;

export function reject(reason: RejectionReason, detail: Record<string, string> = {}): Rejection {
  return { kind: 'rejection', reason, detail };
}
