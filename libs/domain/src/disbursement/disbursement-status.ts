import type { Minor } from '../money/money';

/**
 * Internal lifecycle of a disbursement:
 *   funding -> pending (the ledger debited amount + fee) | refused (the ledger refused: insufficient balance)
 *   pending -> success (the rail completed) | failed (the rail refused or gave up; the debit is refunded)
 * Merchants see pending, success and failed; a refused attempt is not a transaction to them.
 */
export type DisbursementStatus = 'funding' | 'refused' | 'pending' | 'success' | 'failed';
export type PublicDisbursementStatus = 'pending' | 'success' | 'failed';

const TRANSITIONS: Record<DisbursementStatus, readonly DisbursementStatus[]> = {
  funding: ['pending', 'refused'],
  refused: [],
  pending: ['success', 'failed'],
  success: [],
  failed: [],
};

export function canTransition(from: DisbursementStatus, to: DisbursementStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function publicStatus(status: DisbursementStatus): PublicDisbursementStatus | null {
  if (status === 'refused') return null;
  return status === 'funding' ? 'pending' : status;
}

/** Spec 2.4: a failed disbursement charges no fee and its total is the amount. */
export function chargedFee(status: DisbursementStatus, fee: Minor): Minor {
  return status === 'failed' ? 0n : fee;
}
