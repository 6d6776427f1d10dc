import type { Minor } from '../money/money';

/**
 * Internal lifecycle of a disbursement:
 *   funding -> pending (the ledger debited amount + fee) | refused (the ledger refused: insufficient balance)
 *   pending -> success (the rail completed) | failed (the rail refused or gave up; the debit is refunded)
 *   success -> reversed (the beneficiary's bank returned the money days later; the debit is given back)
 * Merchants see pending, success, failed and reversed; a refused attempt is not a transaction to them.
 */
export type DisbursementStatus = 'funding' | 'refused' | 'pending' | 'success' | 'failed' | 'reversed';
export type PublicDisbursementStatus = 'awaiting_approval' | 'pending' | 'success' | 'failed' | 'reversed';

/**
 * A disbursement's approval (docs/payout-approvals.md): null when the merchant needs none;
 * `awaiting` while it is held (debited, not sent); then `approved` (sent as any), `rejected` or
 * `expired` (failed unsent and refunded).
 */
export type PayoutApproval = 'awaiting' | 'approved' | 'rejected' | 'expired';

const TRANSITIONS: Record<DisbursementStatus, readonly DisbursementStatus[]> = {
  funding: ['pending', 'refused'],
  refused: [],
  pending: ['success', 'failed'],
  success: ['reversed'],
  failed: [],
  reversed: [],
};

export function canTransition(from: DisbursementStatus, to: DisbursementStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** `approval`: a debited payout held for its approval reads `awaiting_approval` until decided. */
export function publicStatus(
  status: DisbursementStatus,
  approval: string | null = null,
): PublicDisbursementStatus | null {
  if (status === 'refused') return null;
  if (status === 'pending' && approval === 'awaiting') return 'awaiting_approval';
  return status === 'funding' ? 'pending' : status;
}

/**
 * Spec 2.4: a failed disbursement charges no fee and its total is the amount. A reversed one
 * neither: its amount and its fee were both given back.
 */
export function chargedFee(status: DisbursementStatus, fee: Minor): Minor {
  return status === 'failed' || status === 'reversed' ? 0n : fee;
}
