import { formatAmount } from '@pay/domain';
import type { BatchSubmissionView, BatchView } from '@pay/contracts/dashboard';
import type { BatchRowView, BatchSummary, DisbursementBatch, DisbursementBatchRow } from '@pay/persistence';

/** The submission's answer: per row accepted, or refused with the code and message (the same again for the same batch). */
export function presentBatchSubmission(batch: DisbursementBatch, rows: DisbursementBatchRow[]): BatchSubmissionView {
  return {
    batchId: batch.batchId,
    rowCount: batch.rowCount,
    accepted: batch.acceptedCount,
    refused: batch.rowCount - batch.acceptedCount,
    rows: rows.map((r) => ({
      rowNo: r.rowNo,
      merchantTrxId: r.merchantTrxId,
      result: r.accepted ? ('accepted' as const) : ('refused' as const),
      ...(r.accepted ? {} : { code: r.failureCode, message: r.failureMessage }),
    })),
  };
}

/** A row now: its status (checking: the name check; then its disbursement's), its disbursement, why it did not go. */
function presentRow(r: BatchRowView): BatchView['rows'][number] {
  const failure =
    r.currentStatus === 'refused' && r.disbursementId
      ? {
          code: r.refusalReason ?? 'INSUFFICIENT_BALANCE',
          message: 'Insufficient balance: available does not cover amount + fee',
        }
      : r.currentStatus === 'failed'
        ? { code: r.disbursementFailureCode, message: r.disbursementFailureReason }
        : r.failureCode
          ? { code: r.failureCode, message: r.failureMessage }
          : null;
  return {
    rowNo: r.rowNo,
    merchantTrxId: r.merchantTrxId,
    bankCode: r.bankCode,
    accountNo: r.accountNo,
    accountName: r.bankAccountName ?? r.accountName,
    amount: r.amount === null ? null : formatAmount(r.amount),
    status: r.currentStatus,
    platformTrxId: r.platformTrxId,
    fee: r.fee === null ? null : formatAmount(r.fee),
    failureCode: failure?.code ?? null,
    failureMessage: failure?.message ?? null,
  };
}

/** A batch's approval as merchants read it: one awaiting past its expiry has expired (docs/payout-approvals.md). */
export function batchApproval(batch: DisbursementBatch): BatchView['approval'] {
  if (!batch.approval || !batch.approvalExpiresAt) return null;
  const expired = batch.approval === 'awaiting' && batch.approvalExpiresAt.getTime() <= Date.now();
  return {
    status: expired ? 'expired' : (batch.approval as 'awaiting' | 'approved' | 'rejected'),
    expiresAt: batch.approvalExpiresAt.toISOString(),
  };
}

/** GET .../batch/{batchId}: the batch, its counts per status and totals, and one page of its rows. */
export function presentBatch(
  batch: DisbursementBatch & { summary: BatchSummary },
  rows: BatchRowView[],
  page: { page: number; pageSize: number },
): BatchView {
  const s = batch.summary;
  return {
    batchId: batch.batchId,
    status: batch.completedAt ? 'completed' : 'processing',
    notifyUrl: batch.notifyUrl,
    createdAt: batch.createdAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
    rowCount: batch.rowCount,
    acceptedCount: batch.acceptedCount,
    approval: batchApproval(batch),
    counts: {
      checking: s.checking,
      pending: s.pending,
      success: s.success,
      failed: s.failed,
      refused: s.refused,
      reversed: s.reversed,
    },
    totals: {
      acceptedAmount: formatAmount(s.acceptedAmount),
      successAmount: formatAmount(s.successAmount),
      successFee: formatAmount(s.successFee),
      successTotal: formatAmount(s.successAmount + s.successFee),
    },
    page: { page: page.page, pageSize: page.pageSize, totalRows: batch.rowCount },
    rows: rows.map(presentRow),
  };
}
