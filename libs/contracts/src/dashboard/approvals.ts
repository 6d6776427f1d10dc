/** Approval before money leaves (issue 44 part 2; docs/payout-approvals.md): the dashboard's views. */

/** A payout held for approval: debited (the money held), sent only once approved. */
export interface PayoutAwaitingApprovalView {
  merchantTrxId: string;
  platformTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  /** Rupiah */
  amount: number;
  fee: number;
  totalAmount: number;
  /** token:<id> (merchant API) or user:<id> (dashboard) */
  createdBy: string | null;
  /** ISO 8601: when it was recorded, and when it expires (failed unsent and refunded) unless decided */
  createdAt: string;
  expiresAt: string;
}

/** What a decision (approve or reject) answers: the payout as it now stands. */
export interface PayoutApprovalDecisionView {
  platformTrxId: string;
  merchantTrxId: string;
  approval: 'approved' | 'rejected';
  decidedBy: string;
  decidedAt: string;
}

/** The body of a decision: the password again (and the TOTP code when two-factor sign-in is on), each time. */
export interface PayoutApprovalDecisionBody {
  password: string;
  totp?: string;
  note?: string;
}

/** A merchant's approval settings. */
export interface PayoutApprovalSettingsView {
  /** Payouts above this (Rupiah) wait for approval; null: none do */
  threshold: number | null;
  /** How long a payout waits for a decision before it expires, in seconds (600 to 604,800) */
  ttlSeconds: number;
  /** Every batch waits for approval (one decision for all its rows) */
  batches: boolean;
}

/** A batch held for approval: its accepted rows are checked and debited, none sent until it is approved. */
export interface BatchAwaitingApprovalView {
  batchId: string;
  rowCount: number;
  acceptedCount: number;
  /** Rupiah: the accepted rows' amounts (fees aside) */
  acceptedAmount: number;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
}

/** What a decision on a batch answers: the batch's approval and how many of its payouts it released or rejected now. */
export interface BatchApprovalDecisionView {
  batchId: string;
  approval: 'approved' | 'rejected';
  decidedBy: string;
  decidedAt: string;
  /** Its rows' payouts already recorded (the others take the decision when they are) */
  payouts: number;
}
