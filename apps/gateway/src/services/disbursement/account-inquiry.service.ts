import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type BankRail, RailTimeoutError } from '@pay/bank-rail';
import { ErrorCode } from '@pay/contracts';
import {
  accountNumberProblem,
  type BankInfo,
  BANKS,
  findBank,
  type Minor,
  parseAmount,
  platformTrxId,
} from '@pay/domain';
import { type AuthenticatedMerchant, DisbursementRepository, type DisbursementInquiry } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { BANK_RAIL, GATEWAY_CONFIG } from '../../gateway.tokens';
import { authRefusal } from '../../kernel/auth/merchant/auth-refusal';

/** An account inquiry (spec 4.2): the destination and the amount a transfer will send. */
export interface AccountInquiryCommand {
  merchantTrxId: string;
  bankCode: string;
  accountNo: string;
  /** Rupiah, at most two decimals */
  amount: number;
}

/**
 * Spec 4.2: validates the destination with the bank and quotes the fee; the inquiry is kept for
 * the transfer. A merchantTrxId that already pays for a live transfer is refused when the
 * inquiry is recorded (after the bank's answer: one statement checks and records).
 */
@Injectable()
export class AccountInquiryService {
  constructor(
    private readonly disbursements: DisbursementRepository,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async inquire(merchant: AuthenticatedMerchant, command: AccountInquiryCommand): Promise<DisbursementInquiry> {
    const amount = this.validAmount(command.amount);
    const bank = this.validDestination(command.bankCode, command.accountNo);

    let lookup;
    try {
      lookup = await this.rail.lookupAccount(bank.code, command.accountNo);
    } catch (err) {
      if (err instanceof RailTimeoutError) throw new ApiError(ErrorCode.BankUnavailable);
      throw err;
    }
    if (lookup.kind === 'not_found') throw new ApiError(ErrorCode.AccountNotFound);
    if (lookup.kind === 'blocked') throw new ApiError(ErrorCode.AccountBlocked);

    const now = new Date();
    // One statement: the token is still good, the merchantTrxId does not pay for a live transfer already, the fee is the merchant's now, and the inquiry is recorded.
    const recorded = await this.disbursements.recordInquiry(
      {
        platformTrxId: platformTrxId('DSB', now, randomBytes(12)),
        merchantId: merchant.id,
        merchantTrxId: command.merchantTrxId,
        bankCode: bank.code,
        accountNo: command.accountNo,
        accountName: lookup.accountName,
        amount,
        expiresAt: new Date(now.getTime() + this.config.transfers.inquiryTtlSeconds * 1000),
      },
      merchant.tokenId,
    );
    switch (recorded.kind) {
      case 'created':
        return recorded.inquiry;
      case 'duplicate':
        throw new ApiError(ErrorCode.DuplicateMerchantTrxId);
      default:
        throw authRefusal(recorded.kind);
    }
  }

  /** A known bank or e-wallet code and an account number of its form (the bank itself is not asked); shared with batch rows. */
  validDestination(bankCode: string, accountNo: string): BankInfo {
    const bank = findBank(bankCode);
    if (!bank)
      throw new ApiError(
        ErrorCode.UnknownBankCode,
        `bankCode: unknown bank or e-wallet code "${bankCode}"; the codes (GET /api/v1/banks): ${BANKS.map((b) => b.code).join(', ')}`,
      );
    const problem = accountNumberProblem(bank, accountNo);
    if (problem)
      throw new ApiError(ErrorCode.ValidationError, `accountNo: ${problem}`, [
        { field: 'accountNo', message: problem },
      ]);
    return bank;
  }

  /** Amount within the configured limits; shared with the transfer and batch rows. */
  validAmount(input: number): Minor {
    const amount = parseAmount(input);
    const min = parseAmount(this.config.transfers.minAmount);
    const max = parseAmount(this.config.transfers.maxAmount);
    if (amount < min || amount > max) {
      const message = `must be between ${this.config.transfers.minAmount} and ${this.config.transfers.maxAmount}`;
      throw new ApiError(ErrorCode.ValidationError, `amount: ${message}`, [{ field: 'amount', message }]);
    }
    return amount;
  }
}
