import type { Minor, PayoutFailureCode } from '@pay/domain';

/** What the bank says about a destination account. */
export type AccountLookup =
  | { kind: 'found'; accountName: string }
  | { kind: 'not_found' }
  /** closed, dormant or blocked: it exists but cannot receive money */
  | { kind: 'blocked' };

export interface TransferRequest {
  /** Ours, stable for the life of the disbursement: the rail pays at most once per key */
  idempotencyKey: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
}

export type TransferStatus =
  | { state: 'completed'; reference: string; completedAt: Date }
  /** reference: the bank's, when it gave one (a transfer refused outright may have none) */
  | { state: 'failed'; reference: string | null; reason: string; code: PayoutFailureCode; failedAt: Date }
  /** accepted, or its outcome not known yet (a timeout, a 5xx): ask its status after checkAfterMs */
  | { state: 'processing'; reference: string | null; checkAfterMs: number };

/** The rail did not answer in time: the transfer may or may not have been received. Ask for its status. */
export class RailTimeoutError extends Error {
  constructor(message = 'bank rail did not answer in time') {
    super(message);
    this.name = 'RailTimeoutError';
  }
}

/** The bank or e-wallet code is not one the rail serves. */
export class UnknownBankError extends Error {
  constructor(readonly bankCode: string) {
    super(`unknown bank code ${bankCode}`);
    this.name = 'UnknownBankError';
  }
}

/**
 * A way to move money to bank and e-wallet accounts: the in-process sandbox simulator, or a bank
 * over SNAP (snap/snap-bank-rail.ts).
 */
export interface BankRail {
  /**
   * The rail's name as the payout service knows it (its provider: `sandbox`, `snap`): the books
   * name the rail's in-transit and bank cash accounts after it (payout.send, payout.confirm).
   */
  readonly name: string;
  /**
   * The rail moves real money (a bank's, not a simulator's): sandbox money is never sent over it
   * (docs/decisions/0047-sandbox-money.md). Set from the provider (RailConfig.live).
   */
  readonly live: boolean;
  lookupAccount(bankCode: string, accountNo: string): Promise<AccountLookup>;
  /** Idempotent by idempotencyKey: a repeated submission returns the first one's transfer, never a second payment. */
  submitTransfer(request: TransferRequest): Promise<TransferStatus>;
  /** null when the rail never received a transfer with this key. */
  transferStatus(idempotencyKey: string): Promise<TransferStatus | null>;
  /**
   * Readiness: throws, with the reason, when the provider refuses our credentials (a wrong key or
   * secret, a clock out of its window). A provider that cannot be reached is not a reason: its
   * transfers wait as UNKNOWN.
   */
  ready?(): Promise<void>;
  /** Our source account's available balance at the bank, in sen (null: no answer), where the provider tells it. */
  sourceBalance?(): Promise<bigint | null>;
}
