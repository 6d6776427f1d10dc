import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import type {
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
    if (!(await this.allows(approver, 'payouts:approve')))
      throw new ApiError(ErrorCode.ApprovalNotAllowed, 'Your role may not approve payouts (owner or finance may)');
    const decidedBy = `user:${approver.userId}`;
    const verdict = await this.approvals.decide(approver.merchantId, platformTrxId, decision, decidedBy, note);
    switch (verdict.kind) {
      case 'notFound':
        throw new ApiError(ErrorCode.TransactionNotFound);
      case 'ownPayout':
        throw new ApiError(ErrorCode.ApprovalNotAllowed, 'You created this payout: another approver must decide');
      case 'notAwaiting':
        throw new ApiError(ErrorCode.PayoutNotAwaitingApproval);
      case 'decided': {
        const d = verdict.disbursement;
        return {
          platformTrxId: d.platformTrxId,
          merchantTrxId: d.merchantTrxId,
          approval: decision,
          decidedBy,
          decidedAt: (d.approvalDecidedAt as Date).toISOString(),
        };
      }
    }
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
    const s = await this.approvals.setSettings(merchantId, { threshold, ttlSeconds: input.ttlSeconds });
    if (!s) throw new ApiError(ErrorCode.NotFound, 'Merchant not found');
    return presentSettings(s);
  }
}

function presentSettings(s: { threshold: bigint | null; ttlSeconds: number }): PayoutApprovalSettingsView {
  return { threshold: s.threshold === null ? null : formatAmount(s.threshold), ttlSeconds: s.ttlSeconds };
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
