import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import type {
  BatchApprovalDecisionView,
  BatchAwaitingApprovalView,
  PayoutApprovalDecisionView,
  PayoutApprovalSettingsView,
  PayoutAwaitingApprovalView,
} from '@pay/contracts/dashboard';
import { formatAmount, InvalidAmountError, parseAmount, roleAllows } from '@pay/domain';
import {
  type ApprovalDecision,
  DashboardUserRepository,
  type Disbursement,
  PayoutApprovalRepository,
  type PayoutApprovalSettings,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';

/** Who decides: a dashboard user of the merchant. */
export interface Approver {
  userId: number;
  merchantId: number;
}

/**
 * Approval before money leaves (issue 44 part 2; docs/payout-approvals.md): the settings, the
 * payouts awaiting approval, and a decision by another user of the merchant.
 */
@Injectable()
export class PayoutApprovalService {
  constructor(
    private readonly approvals: PayoutApprovalRepository,
    private readonly users: DashboardUserRepository,
  ) {}

  /**
   * Whether the merchant's user may do this (docs/access.md): `payouts:approve` to decide (owner,
   * finance), `settings:manage` to set the approval settings (owner). Read from the user's row
   * at each request, so a role changed meanwhile applies at once.
   */
  async allows(user: Approver, permission: 'payouts:approve' | 'settings:manage'): Promise<boolean> {
    const row = await this.users.findById(user.userId);
    return (
      row !== undefined &&
      row.disabledAt === null &&
      row.merchantId === user.merchantId &&
      row.merchantRole !== null &&
      roleAllows(row.merchantRole, permission)
    );
  }

  async awaiting(merchantId: number): Promise<PayoutAwaitingApprovalView[]> {
    return (await this.approvals.awaiting(merchantId)).map(presentAwaiting);
  }

  /** Approves (released to the payout service) or rejects (failed unsent, refunded) the merchant's payout. */
  async decide(
    approver: Approver,
    platformTrxId: string,
    decision: ApprovalDecision,
    note: string | null,
  ): Promise<PayoutApprovalDecisionView> {
    const decidedBy = await this.approverOf(approver);
    const verdict = await this.approvals.decide(approver.merchantId, platformTrxId, decision, decidedBy, note);
    if (verdict.kind !== 'decided') throw refusal(verdict.kind, ErrorCode.TransactionNotFound, 'payout');
    const d = verdict.disbursement;
    return {
      platformTrxId: d.platformTrxId,
      merchantTrxId: d.merchantTrxId,
      approval: decision,
      decidedBy,
      decidedAt: (d.approvalDecidedAt as Date).toISOString(),
    };
  }

  async awaitingBatches(merchantId: number): Promise<BatchAwaitingApprovalView[]> {
    return (await this.approvals.awaitingBatches(merchantId)).map((b) => ({
      batchId: b.batchId,
      rowCount: b.rowCount,
      acceptedCount: b.acceptedCount,
      acceptedAmount: formatAmount(b.acceptedAmount),
      createdBy: b.createdBy,
      createdAt: b.createdAt.toISOString(),
      expiresAt: (b.approvalExpiresAt as Date).toISOString(),
    }));
  }

  /** Approves (its rows' payouts released to the payout service) or rejects (failed unsent, refunded) the merchant's batch. */
  async decideBatch(
    approver: Approver,
    batchId: string,
    decision: ApprovalDecision,
    note: string | null,
  ): Promise<BatchApprovalDecisionView> {
    const decidedBy = await this.approverOf(approver);
    const verdict = await this.approvals.decideBatch(approver.merchantId, batchId, decision, decidedBy, note);
    if (verdict.kind !== 'decided') throw refusal(verdict.kind, ErrorCode.BatchNotFound, 'batch');
    return {
      batchId: verdict.batch.batchId,
      approval: decision,
      decidedBy,
      decidedAt: (verdict.batch.approvalDecidedAt as Date).toISOString(),
      payouts: verdict.payouts,
    };
  }

  /** The approver's name in the decisions (user:<id>), once its role is found to allow approving payouts. */
  private async approverOf(approver: Approver): Promise<string> {
    if (!(await this.allows(approver, 'payouts:approve')))
      throw new ApiError(ErrorCode.ApprovalNotAllowed, 'Your role may not approve payouts (owner or finance may)');
    return `user:${approver.userId}`;
  }

  async settings(merchantId: number): Promise<PayoutApprovalSettingsView> {
    const s = await this.approvals.settings(merchantId);
    if (!s) throw new ApiError(ErrorCode.NotFound, 'Merchant not found');
    return presentSettings(s);
  }

  /** `threshold` in Rupiah (null: no approvals); `ttlSeconds` within the bounds (the DTO checks them). */
  async setSettings(merchantId: number, input: PayoutApprovalSettingsView): Promise<PayoutApprovalSettingsView> {
    let threshold: bigint | null;
    try {
      threshold = input.threshold === null ? null : parseAmount(input.threshold);
    } catch (err) {
      if (!(err instanceof InvalidAmountError)) throw err;
      throw new ApiError(ErrorCode.ValidationError, 'threshold: must be an amount with at most two decimals', [
        { field: 'threshold', message: 'must be an amount with at most two decimals' },
      ]);
    }
    const s = await this.approvals.setSettings(merchantId, {
      threshold,
      ttlSeconds: input.ttlSeconds,
      batches: input.batches,
    });
    if (!s) throw new ApiError(ErrorCode.NotFound, 'Merchant not found');
    return presentSettings(s);
  }
}

/** Why a decision was not taken, as the API says it. */
function refusal(
  kind: 'notFound' | 'ownPayout' | 'notAwaiting',
  notFound: ErrorCode,
  what: 'payout' | 'batch',
): ApiError {
  switch (kind) {
    case 'notFound':
      return new ApiError(notFound);
    case 'ownPayout':
      return new ApiError(ErrorCode.ApprovalNotAllowed, `You created this ${what}: another approver must decide`);
    case 'notAwaiting':
      return new ApiError(
        ErrorCode.PayoutNotAwaitingApproval,
        `The ${what} is not awaiting approval: already decided or expired`,
      );
  }
}

function presentSettings(s: PayoutApprovalSettings): PayoutApprovalSettingsView {
  return {
    threshold: s.threshold === null ? null : formatAmount(s.threshold),
    ttlSeconds: s.ttlSeconds,
    batches: s.batches,
  };
}

function presentAwaiting(d: Disbursement): PayoutAwaitingApprovalView {
  return {
    merchantTrxId: d.merchantTrxId,
    platformTrxId: d.platformTrxId,
    bankCode: d.bankCode,
    accountNo: d.accountNo,
    accountName: d.accountName,
    amount: formatAmount(d.amount),
    fee: formatAmount(d.fee),
    totalAmount: formatAmount(d.amount + d.fee),
    createdBy: d.createdBy,
    createdAt: d.createdAt.toISOString(),
    expiresAt: (d.approvalExpiresAt as Date).toISOString(),
  };
}
