import type { Minor } from '../money/money';

export interface BalanceState {
  available: Minor;
  pending: Minor;
}

export interface BalanceChange {
  availableDelta: Minor;
  pendingDelta: Minor;
}

export type DebitDecision =
  | { ok: true; change: BalanceChange }
  | { ok: false; reason: 'INSUFFICIENT_BALANCE'; available: Minor; required: Minor };

/** A payout needs amount + fee out of available; available never goes below zero. */
export function decideDebit(balance: BalanceState, amount: Minor, fee: Minor): DebitDecision {
  const required = amount + fee;
  if (amount <= 0n || fee < 0n) throw new RangeError('payout amount must be positive and fee non-negative');
  if (balance.available < required) {
    return { ok: false, reason: 'INSUFFICIENT_BALANCE', available: balance.available, required };
  }
  return { ok: true, change: { availableDelta: -required, pendingDelta: 0n } };
}
