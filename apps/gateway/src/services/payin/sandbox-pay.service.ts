import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { formatAmountString, parseAmount } from '@pay/domain';
import { type Payin, PayinRepository } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import { AcquirerService } from './acquirer.service';

/** What the simulated payer does to one of the merchant's codes: pay its amount (or another, a mismatch), succeed or fail. */
export interface SandboxPayCommand {
  merchantTrxId: string;
  amount?: number;
  status?: 'success' | 'failed';
  issuer?: string;
}

/**
 * The sandbox payer (SANDBOX_MODE only; its callers check): a signed acquirer notification for
 * one of the merchant's codes, through the same path as the acquirer's own, so the same refusals.
 * What it pays is sandbox money: marked on the pay-in and its ledger command, never paid out over
 * a live rail (docs/decisions/0047-sandbox-money.md).
 * Used by the API's sandbox/pay and the merchant dashboard's simulate.
 */
@Injectable()
export class SandboxPayService {
  constructor(
    private readonly payins: PayinRepository,
    private readonly acquirer: AcquirerService,
  ) {}

  async pay(merchantId: number, payment: SandboxPayCommand): Promise<Payin> {
    const payin = await this.payins.find(merchantId, payment.merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    const rawBody = JSON.stringify({
      acquirerReference: `SBX-${randomUUID()}`,
      platformTrxId: payin.platformTrxId,
      amount: Number(formatAmountString(payment.amount !== undefined ? parseAmount(payment.amount) : payin.amount)),
      status: payment.status ?? 'success',
      rrn: [...randomBytes(12)].map((b) => String(b % 10)).join(''),
      issuer: payment.issuer ?? 'DANA',
      paidAt: new Date().toISOString(),
      ...(payment.status === 'failed' ? { failureReason: 'Payer cancelled the payment' } : {}),
    });
    const { payin: paid } = await this.acquirer.receive({
      rawBody,
      signature: this.acquirer.sign(rawBody),
      sandbox: true,
    });
    return paid;
  }
}
