import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ledgerCommandId, type LedgerCommand } from '@pay/contracts';
import { formatAmountString, type Minor } from '@pay/domain';
import { type AuthenticatedMerchant, type Disbursement, DisbursementRepository, type DisbursementInquiry, isUniqueViolation } from '@pay/persistence';
import { ApiError, checkWebhookTarget, currentLogId, WebhookTargetRefused } from '@pay/platform';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { AccountInquiryService } from './account-inquiry.service';
import { DecisionWaiter } from './decision-waiter';
import type { TransferDto } from './dto/disbursement.dto';

/** Safety net only: the ledger's NOTIFY wakes the request as soon as the decision commits. */
const FALLBACK_POLL_MS = 500;

/**
 * Spec 4.3. The transfer must match an unexpired inquiry of the same merchant; it is recorded
 * as `funding` together with the ledger's debit command (outbox), and the answer waits for the
 * ledger's decision: debited -> accepted (pending); refused -> INSUFFICIENT_BALANCE, and the
 * attempt frees its merchantTrxId and inquiry; no decision in time -> TRANSFER_PROCESSING, and
 * the same request sent again gets the decision made meanwhile.
 */
@Injectable()
export class TransferService {
  constructor(
    private readonly disbursements: DisbursementRepository,
    private readonly inquiries: AccountInquiryService,
    private readonly decisions: DecisionWaiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async transfer(merchant: AuthenticatedMerchant, dto: TransferDto): Promise<Disbursement> {
    const amount = this.inquiries.validAmount(dto.amount);
    await this.checkNotifyUrl(dto.notifyUrl);

    const existing = await this.disbursements.findLive(merchant.id, dto.merchantTrxId);
    if (existing) {
      // The same request again (a retry after a timeout or a lost response) gets the decision already made.
      if (!isSameRequest(existing, dto, amount)) throw new ApiError(ErrorCode.DuplicateMerchantTrxId);
      return this.awaitDecision(existing);
    }

    const inquiry = await this.disbursements.findInquiry(merchant.id, dto.platformTrxId);
    if (!inquiry) throw new ApiError(ErrorCode.InquiryNotFound);
    if (inquiry.expiresAt.getTime() <= Date.now()) throw new ApiError(ErrorCode.InquiryExpired);
    const mismatch = firstMismatch(inquiry, dto, amount);
    if (mismatch) throw new ApiError(ErrorCode.InquiryMismatch, `${mismatch} does not match the account inquiry`, [{ field: mismatch, message: 'does not match the account inquiry' }]);
    const usedBy = await this.disbursements.findLiveByInquiry(inquiry.platformTrxId);
    if (usedBy) {
      // A concurrent copy of this very request may have just recorded it.
      if (usedBy.merchantTrxId === dto.merchantTrxId && isSameRequest(usedBy, dto, amount)) return this.awaitDecision(usedBy);
      throw new ApiError(ErrorCode.InquiryAlreadyUsed);
    }

    const id = randomUUID();
    const logId = currentLogId();
    const debit: LedgerCommand = {
      type: 'payout.debit',
      commandId: ledgerCommandId.payoutDebit(id),
      merchantId: merchant.id,
      logId,
      issuedAt: new Date().toISOString(),
      payoutId: id,
      amount: inquiry.amount.toString(),
      fee: inquiry.fee.toString(),
    };
    let created: Disbursement;
    try {
      created = await this.disbursements.createFunding(
        {
          id,
          merchantId: merchant.id,
          merchantTrxId: dto.merchantTrxId,
          platformTrxId: inquiry.platformTrxId,
          bankCode: inquiry.bankCode,
          accountNo: inquiry.accountNo,
          accountName: inquiry.accountName,
          amount: inquiry.amount,
          fee: inquiry.fee,
          notifyUrl: dto.notifyUrl,
          logId,
        },
        debit,
      );
    } catch (err) {
      // A concurrent request took the merchantTrxId or the inquiry first.
      if (!isUniqueViolation(err)) throw err;
      const winner = await this.disbursements.findLive(merchant.id, dto.merchantTrxId);
      if (winner && isSameRequest(winner, dto, amount)) return this.awaitDecision(winner);
      throw new ApiError(winner ? ErrorCode.DuplicateMerchantTrxId : ErrorCode.InquiryAlreadyUsed);
    }
    return this.awaitDecision(created);
  }

  /** The callback may not point into our own network (SSRF); delivery checks again at connect time. */
  private async checkNotifyUrl(url: string): Promise<void> {
    try {
      await checkWebhookTarget(url, { allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK });
    } catch (err) {
      if (!(err instanceof WebhookTargetRefused)) throw err;
      const message = `${err.message}; callbacks go to public addresses only`;
      throw new ApiError(ErrorCode.NotifyUrlNotAllowed, `notifyUrl: ${message}`, [{ field: 'notifyUrl', message }]);
    }
  }

  private async awaitDecision(disbursement: Disbursement): Promise<Disbursement> {
    if (disbursement.status !== 'funding') return this.decided(disbursement);
    const deadline = Date.now() + this.config.TRANSFER_DECISION_TIMEOUT_MS;
    // Subscribed before each read, so a decision committed just before it is seen by the read.
    const decision = this.decisions.subscribe(disbursement.id);
    try {
      for (;;) {
        const current = await this.disbursements.get(disbursement.id);
        if (!current) throw new Error(`disbursement ${disbursement.id} vanished`);
        if (current.status !== 'funding') return await this.decided(current);
        const left = deadline - Date.now();
        if (left <= 0) throw new ApiError(ErrorCode.TransferProcessing);
        await decision.next(Math.min(left, FALLBACK_POLL_MS));
      }
    } finally {
      decision.close();
    }
  }

  private async decided(d: Disbursement): Promise<Disbursement> {
    if (d.status === 'refused') throw await this.refusal(d);
    return d;
  }

  private async refusal(d: Disbursement): Promise<ApiError> {
    const outcome = await this.disbursements.ledgerOutcome(ledgerCommandId.payoutDebit(d.id));
    if (outcome?.outcome === 'rejected' && outcome.reason === 'INSUFFICIENT_BALANCE') {
      const available = formatAmountString(BigInt(outcome.detail.available ?? '0'));
      const required = formatAmountString(BigInt(outcome.detail.required ?? '0'));
      return new ApiError(ErrorCode.InsufficientBalance, `Insufficient balance: available ${available}, required ${required} (amount + fee)`);
    }
    return new ApiError(ErrorCode.InsufficientBalance, 'Insufficient balance');
  }
}

function isSameRequest(d: Disbursement, dto: TransferDto, amount: Minor): boolean {
  return (
    d.platformTrxId === dto.platformTrxId &&
    d.accountNo === dto.accountNo &&
    d.bankCode === dto.bankCode &&
    d.accountName === dto.accountName &&
    d.amount === amount &&
    d.notifyUrl === dto.notifyUrl
  );
}

/**
 * The first field of the transfer that differs from its inquiry, in the order a merchant would
 * check them. merchantTrxId may differ: the inquiry's id is the merchant's own reference for the lookup.
 */
function firstMismatch(i: DisbursementInquiry, dto: TransferDto, amount: Minor): string | null {
  if (i.accountNo !== dto.accountNo) return 'accountNo';
  if (i.bankCode !== dto.bankCode) return 'bankCode';
  if (i.amount !== amount) return 'amount';
  if (i.accountName !== dto.accountName) return 'accountName';
  return null;
}
