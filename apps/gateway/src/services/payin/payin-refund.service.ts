import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { formatAmountString, parseAmount } from '@pay/domain';
import { type PayinRefund, PayinRefundRepository, type RefundView } from '@pay/persistence';
import { ApiError, currentLogId } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';
import { DecisionWaiter } from '../disbursement/decision-waiter';

/** Safety net only: the ledger's NOTIFY wakes the request as soon as the decision commits. */
const FALLBACK_POLL_MS = 500;

/** A merchant's refund of one of its pay-ins (issue 44). */
export interface RefundCommand {
  merchantTrxId: string;
  refundId: string;
  /** Rupiah, at most two decimals */
  amount: number;
  reason?: string;
}

/**
 * POST /api/v1/payin/refund. The refund is recorded with the ledger's debit command in one
 * transaction holding the pay-in (so concurrent partial refunds never exceed it), then the
 * answer waits for the ledger's decision like a transfer: debited -> the refund, `pending` (the
 * workers send it to the acquirer); refused -> INSUFFICIENT_BALANCE (the refund is kept as
 * refused, its refundId free again); no decision in time -> REFUND_PROCESSING, and the same
 * request again gets the decision made meanwhile.
 */
@Injectable()
export class PayinRefundService {
  constructor(
    private readonly refunds: PayinRefundRepository,
    private readonly decisions: DecisionWaiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async refund(merchantId: number, command: RefundCommand): Promise<RefundView> {
    const amount = parseAmount(command.amount);
    const id = randomUUID();
    const reason = command.reason ?? null;
    const decision = this.decisions.subscribe(id);
    try {
      const verdict = await this.refunds.recordRefund({
        id,
        merchantId,
        merchantTrxId: command.merchantTrxId,
        refundId: command.refundId,
        amount,
        reason,
        logId: currentLogId() ?? null,
        windowSeconds: this.config.payins.refundWindowSeconds,
      });
      switch (verdict.kind) {
        case 'created':
          return await this.decided(verdict.refund, () => decision.next(FALLBACK_POLL_MS));
        case 'existing': {
          const same = await this.sameRequest(verdict.refund, command.merchantTrxId, amount, reason);
          if (!same) throw new ApiError(ErrorCode.RefundIdConflict);
          const again = this.decisions.subscribe(verdict.refund.id);
          try {
            return await this.decided(verdict.refund, () => again.next(FALLBACK_POLL_MS));
          } finally {
            again.close();
          }
        }
        case 'payinNotFound':
          throw new ApiError(ErrorCode.TransactionNotFound);
        case 'notRefundable':
          throw new ApiError(
            ErrorCode.PayinNotRefundable,
            `Only a successful QRIS payment can be refunded; this one is ${verdict.status}`,
          );
        case 'windowClosed':
          throw new ApiError(
            ErrorCode.RefundWindowClosed,
            `The QRIS payment is older than the acquirer's refund window of ${this.config.payins.refundWindowSeconds / 86_400} days`,
          );
        case 'exceeds':
          throw new ApiError(
            ErrorCode.RefundAmountExceeded,
            `The refund amount is more than what is left of the QRIS payment: at most ${formatAmountString(verdict.left)}`,
          );
      }
    } finally {
      decision.close();
    }
  }

  /** The merchant's refund by refundId. */
  async find(merchantId: number, refundId: string): Promise<RefundView> {
    const refund = await this.refunds.view(merchantId, refundId);
    if (!refund || refund.status === 'refused' || refund.status === 'debiting')
      throw new ApiError(ErrorCode.RefundNotFound);
    return refund;
  }

  private async sameRequest(
    r: PayinRefund,
    merchantTrxId: string,
    amount: bigint,
    reason: string | null,
  ): Promise<boolean> {
    if (r.amount !== amount || r.reason !== reason) return false;
    const view = await this.refunds.get(r.id);
    return view?.merchantTrxId === merchantTrxId;
  }

  /** Waits for the ledger's decision on the refund's debit (REFUND_PROCESSING when none comes in time). */
  private async decided(refund: PayinRefund, wake: () => Promise<unknown>): Promise<RefundView> {
    const deadline = Date.now() + this.config.transfers.decisionTimeoutMs;
    for (;;) {
      const current = await this.refunds.get(refund.id);
      if (!current) throw new Error(`refund ${refund.id} vanished`);
      if (current.status === 'refused') throw await this.refusal(refund.id);
      if (current.status !== 'debiting') return current;
      if (Date.now() >= deadline) throw new ApiError(ErrorCode.RefundProcessing);
      await wake();
    }
  }

  private async refusal(id: string): Promise<ApiError> {
    const refused = await this.refunds.ledgerRefusal(id);
    if (refused?.reason === 'INSUFFICIENT_BALANCE') {
      const d = refused.detail;
      const need =
        BigInt(d.requiredPending ?? '0') > 0n
          ? `pending ${formatAmountString(BigInt(d.pending ?? '0'))} and available ${formatAmountString(BigInt(d.available ?? '0'))}, required ${formatAmountString(BigInt(d.requiredPending ?? '0'))} from pending and ${formatAmountString(BigInt(d.requiredAvailable ?? '0'))} from available`
          : `available ${formatAmountString(BigInt(d.available ?? '0'))}, required ${formatAmountString(BigInt(d.requiredAvailable ?? '0'))}`;
      return new ApiError(ErrorCode.InsufficientBalance, `Insufficient balance for the refund: ${need}`);
    }
    return new ApiError(ErrorCode.PayinNotRefundable, `The refund was refused: ${refused?.reason ?? 'unknown'}`);
  }
}
