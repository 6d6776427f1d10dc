import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { formatAmountString, parseAmount } from '@pay/domain';
import { type MerchantClock, type Payin, PayinRepository } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, MERCHANT_CLOCK } from '../../gateway.tokens';
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
 * With QRIS_ACQUIRER=snap the code is the acquirer's, so the payer pays it there: the SNAP provider
 * simulator's control (SNAP_ACQUIRER_SIMULATOR_URL) marks it paid and sends its signed notification
 * (52), which the gateway applies as any acquirer's; the answer comes once that notification was
 * answered. The simulator's payments are sandbox money all the same (SnapNotificationService).
 * Used by the API's sandbox/pay and the merchant dashboard's simulate.
 */
@Injectable()
export class SandboxPayService {
  constructor(
    private readonly payins: PayinRepository,
    private readonly acquirer: AcquirerService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(MERCHANT_CLOCK) private readonly clock: MerchantClock,
  ) {}

  async pay(merchantId: number, payment: SandboxPayCommand): Promise<Payin> {
    const payin = await this.payins.find(merchantId, payment.merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    const qris = this.config.acquirer.qris;
    if (qris.kind === 'snap') return this.payAtSimulator(merchantId, payin, payment, qris.simulatorUrl);
    // Paid at the merchant's time (a sandbox clock's when one is ahead): its settlement counts T+n from there.
    const now = await this.clock.now(merchantId);
    const rawBody = JSON.stringify({
      acquirerReference: `SBX-${randomUUID()}`,
      platformTrxId: payin.platformTrxId,
      amount: Number(formatAmountString(payment.amount !== undefined ? parseAmount(payment.amount) : payin.amount)),
      status: payment.status ?? 'success',
      rrn: [...randomBytes(12)].map((b) => String(b % 10)).join(''),
      issuer: payment.issuer ?? 'DANA',
      paidAt: now.toISOString(),
      ...(payment.status === 'failed' ? { failureReason: 'Payer cancelled the payment' } : {}),
    });
    const { payin: paid } = await this.acquirer.receive(
      { rawBody, signature: this.acquirer.sign(rawBody, now), sandbox: true },
      now,
    );
    return paid;
  }

  /** The acquirer's simulator pays the code; its notification (52) is what moves the pay-in. */
  private async payAtSimulator(
    merchantId: number,
    payin: Payin,
    payment: SandboxPayCommand,
    simulatorUrl: string | null,
  ): Promise<Payin> {
    // The start-up rules refuse SANDBOX_MODE beside a real acquirer; this is their belt and braces.
    if (!simulatorUrl) throw new ApiError(ErrorCode.NotFound);
    // A dynamic code carries its amount: the acquirer takes no other, so the refusal is the one a notification would get.
    if (payment.amount !== undefined && parseAmount(payment.amount) !== payin.amount)
      throw new ApiError(ErrorCode.AmountMismatch);
    if (payin.qrisPayload === null)
      throw new ApiError(ErrorCode.PayinNotFound, 'The acquirer has not generated this code: generate it again first');
    let res: Response;
    try {
      res = await fetch(`${simulatorUrl.replace(/\/$/, '')}/qris/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          partnerReferenceNo: payin.platformTrxId,
          status: payment.status === 'failed' ? 'failed' : 'paid',
          issuer: payment.issuer ?? 'DANA',
        }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new ApiError(ErrorCode.BankUnavailable, 'The acquirer (simulator) did not answer; please retry');
    }
    if (res.status === 409) {
      const { message } = (await res.json().catch(() => ({}))) as { message?: string };
      throw new ApiError(/expired/.test(message ?? '') ? ErrorCode.QrExpired : ErrorCode.PayinAlreadyFinal);
    }
    if (res.status === 404) throw new ApiError(ErrorCode.PayinNotFound);
    if (!res.ok) throw new ApiError(ErrorCode.BankUnavailable, 'The acquirer (simulator) refused the payment');
    const paid = await this.payins.find(merchantId, payin.merchantTrxId);
    if (!paid) throw new ApiError(ErrorCode.TransactionNotFound);
    return paid;
  }
}
