// Batch payouts on the merchant dashboard (issue 44): the CSV's rows previewed, submitted, followed.

/** One row as the CSV gives it (the merchant API's batch row) */
export interface BatchRowBody {
  merchantTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName?: string;
  amount: number;
}

/** POST /dashboard/api/payouts/batch/preview */
export interface BatchPreviewBody {
  rows: BatchRowBody[];
}

/** POST /dashboard/api/payouts/batch */
export interface BatchSubmitBody {
  batchId: string;
  rows: BatchRowBody[];
}

/** A row's answer: accepted, or refused with the code and message the API gives */
export interface BatchRowResultView {
  rowNo: number;
  merchantTrxId: string;
  result: 'accepted' | 'refused';
  code?: string | null;
  message?: string | null;
}

/** What submitting the rows would answer now (nothing recorded) */
export interface BatchPreviewView {
  rowCount: number;
  accepted: number;
  refused: number;
  /** Sum of the accepted rows' amounts (Rupiah) */
  acceptedAmount: number;
  rows: BatchRowResultView[];
}

/** The submission's answer */
export interface BatchSubmissionView {
  batchId: string;
  rowCount: number;
  accepted: number;
  refused: number;
  rows: BatchRowResultView[];
}

export type BatchRowStatus = 'checking' | 'pending' | 'success' | 'failed' | 'refused' | 'reversed';

/** GET /dashboard/api/payouts/batch/{batchId}: as the merchant API's */
export interface BatchView {
  batchId: string;
  status: 'processing' | 'completed';
  notifyUrl: string | null;
  createdAt: string;
  completedAt: string | null;
  rowCount: number;
  acceptedCount: number;
  /** Held for approval (docs/payout-approvals.md): null when the merchant does not require it */
  approval: { status: 'awaiting' | 'approved' | 'rejected' | 'expired'; expiresAt: string } | null;
  counts: Record<BatchRowStatus, number>;
  totals: { acceptedAmount: number; successAmount: number; successFee: number; successTotal: number };
  page: { page: number; pageSize: number; totalRows: number };
  rows: {
    rowNo: number;
    merchantTrxId: string;
    bankCode: string;
    accountNo: string;
    accountName: string | null;
    amount: number | null;
    status: BatchRowStatus;
    platformTrxId: string | null;
    fee: number | null;
    failureCode: string | null;
    failureMessage: string | null;
  }[];
}
