import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ledgerCommandId } from '@pay/contracts';
import { formatAmountString, type Minor } from '@pay/domain';
import { type AuthenticatedMerchant, type Disbursement, DisbursementRepository } from '@pay/persistence';
import { ApiError, currentLogId } from '@pay/platform';
import { authRefusal } from '../../kernel/auth/merchant/auth-refusal';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';
import { assertNotifyUrlAllowed } from '../../kernel/http/notify-url.check';
import { type AccountInquiryCommand, AccountInquiryService } from './account-inquiry.service';
import { type DecisionSubscription, DecisionWaiter } from './decision-waiter';

/** Safety net only: the ledger's NOTIFY wakes the request as soon as the decision commits. */
const FALLBACK_POLL_MS = 500;

/** A transfer (spec 4.3): the inquiry it pays, the name the bank gave, and where its final status goes. */
export interface TransferCommand extends AccountInquiryCommand {
  accountName: string;
  /** The inquiry's platformTrxId */
  platformTrxId: string;
  notifyUrl: string;
}

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

  async transfer(merchant: AuthenticatedMerchant, command: TransferCommand): Promise<Disbursement> {
    const amount = this.inquiries.validAmount(command.amount);
    await this.checkNotifyUrl(command.notifyUrl);

    const id = randomUUID();
    const logId = currentLogId();
    // Subscribed before the transfer is recorded: its decision cannot come before, so no read of the row is needed to catch one.
    const decision = this.decisions.subscribe(id);
    try {
      // One statement checks the merchantTrxId and the inquiry and records the transfer with its debit command (or says why not).
      const verdict = await this.disbursements.recordTransfer(
        {
          id,
          merchantId: merchant.id,
          merchantTrxId: command.merchantTrxId,
          platformTrxId: command.platformTrxId,
          bankCode: command.bankCode,
          accountNo: command.accountNo,
          accountName: command.accountName,
          amount,
          notifyUrl: command.notifyUrl,
          logId,
        },
        {
          type: 'payout.debit',
          commandId: ledgerCommandId.payoutDebit(id),
          merchantId: merchant.id,
          logId,
          issuedAt: new Date().toISOString(),
          payoutId: id,
        },
        merchant.tokenId,
      );
      switch (verdict.kind) {
        case 'created':
          return await this.awaitDecision(verdict.disbursement, decision, false);
        case 'live':
          // The same request again (a retry after a timeout or a lost response) gets the decision already made.
          if (!isSameRequest(verdict.disbursement, command, amount))
            throw new ApiError(ErrorCode.DuplicateMerchantTrxId);
          return await this.awaitExisting(verdict.disbursement);
        case 'notFound':
          throw new ApiError(ErrorCode.InquiryNotFound);
        case 'expired':
          throw new ApiError(ErrorCode.InquiryExpired);
        case 'mismatch':
          throw new ApiError(ErrorCode.InquiryMismatch, `${verdict.field} does not match the account inquiry`, [
            { field: verdict.field, message: 'does not match the account inquiry' },
          ]);
        case 'used':
          // A concurrent copy of this very request may have just recorded it.
          if (
            verdict.disbursement.merchantTrxId === command.merchantTrxId &&
            isSameRequest(verdict.disbursement, command, amount)
          )
            return await this.awaitExisting(verdict.disbursement);
          throw new ApiError(ErrorCode.InquiryAlreadyUsed);
        case 'tokenNotValid':
        case 'merchantNotActive':
          throw authRefusal(verdict.kind);
        case 'raced': {
          // A concurrent request took the merchantTrxId or the inquiry first (after this statement's snapshot).
          const winner = await this.disbursements.findLive(merchant.id, command.merchantTrxId);
          if (winner && isSameRequest(winner, command, amount)) return await this.awaitExisting(winner);
          throw new ApiError(winner ? ErrorCode.DuplicateMerchantTrxId : ErrorCode.InquiryAlreadyUsed);
        }
      }
    } finally {
      decision.close();
    }
  }

  /** The callback may not point into our own network (SSRF); delivery checks again at connect time. */
  private checkNotifyUrl(url: string): Promise<void> {
    return assertNotifyUrlAllowed(url, this.config.webhooks);
  }

  /** A transfer recorded by an earlier (or concurrent) copy of the request: its decision, once made. */
  private async awaitExisting(disbursement: Disbursement): Promise<Disbursement> {
    if (disbursement.status !== 'funding') return this.decided(disbursement);
    const decision = this.decisions.subscribe(disbursement.id);
    try {
      // The row was read before subscribing: a decision committed in between is only seen by reading again.
      return await this.awaitDecision(disbursement, decision, true);
    } finally {
      decision.close();
    }
  }

  /**
   * Waits for the ledger's decision: the notice's status when it carries one (no read), else the
   * row read again after each wake-up; TRANSFER_PROCESSING when none comes in time.
   */
  private async awaitDecision(
    disbursement: Disbursement,
    decision: DecisionSubscription,
    readFirst: boolean,
  ): Promise<Disbursement> {
    const deadline = Date.now() + this.config.transfers.decisionTimeoutMs;
    let current = disbursement;
    for (let read = readFirst; ; read = true) {
      if (read) {
        const row = await this.disbursements.get(disbursement.id);
        if (!row) throw new Error(`disbursement ${disbursement.id} vanished`);
        current = row;
      }
      if (current.status !== 'funding') return await this.decided(current);
      const left = deadline - Date.now();
      if (left <= 0) throw new ApiError(ErrorCode.TransferProcessing);
      const status = await decision.next(Math.min(left, FALLBACK_POLL_MS));
      if (status) return await this.decided({ ...current, status });
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
      return new ApiError(
        ErrorCode.InsufficientBalance,
        `Insufficient balance: available ${available}, required ${required} (amount + fee)${this.sandboxHint()}`,
      );
    }
    return new ApiError(ErrorCode.InsufficientBalance, `Insufficient balance${this.sandboxHint()}`);
  }

  /** In the sandbox, pay-ins wait for their settlement (T+1) like live ones: the way not to wait. */
  private sandboxHint(): string {
    return this.config.payins.sandbox
      ? '. Sandbox: paid pay-ins are pending until they settle; POST /api/v1/payin/qris/sandbox/settle settles them now'
      : '';
  }
}

function isSameRequest(d: Disbursement, command: TransferCommand, amount: Minor): boolean {
  return (
    d.platformTrxId === command.platformTrxId &&
    d.accountNo === command.accountNo &&
    d.bankCode === command.bankCode &&
    d.accountName === command.accountName &&
    d.amount === amount &&
    d.notifyUrl === command.notifyUrl
  );
}
