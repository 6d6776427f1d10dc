import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SnapQrisAcquirer } from '@pay/bank-rail';
import { ErrorCode } from '@pay/contracts';
import {
  encodeQris,
  type Minor,
  parseAmount,
  payinFee,
  platformTrxId as newPlatformTrxId,
  type QrisPayment,
} from '@pay/domain';
import {
  isUniqueViolation,
  type MerchantClock,
  type Payin,
  PayinRepository,
  type PrismaClient,
} from '@pay/persistence';
import { ApiError, currentLogId } from '@pay/platform';
import { toDataURL } from 'qrcode';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, MERCHANT_CLOCK, PRISMA, QRIS_ACQUIRER } from '../../gateway.tokens';
import { assertNotifyUrlAllowed } from '../../kernel/http/notify-url.check';

/** The QR code of a QRIS payload as a PNG data URL. */
export function qrImageOf(payload: string): Promise<string> {
  return toDataURL(payload, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

/** A dynamic QRIS code for one payment. */
export interface GenerateQrisCommand {
  merchantTrxId: string;
  /** Rupiah, at most two decimals */
  amount: number;
  /** Default and maximum are settings */
  expirySeconds?: number;
  /** Also return the QR code as a PNG data URL */
  withImage?: boolean;
  /** Where the pay-in's final status goes (else the merchant's default callback URL) */
  notifyUrl?: string;
}

/**
 * Creates dynamic QRIS codes: the pay-in row (pending) with its payload and quoted fee.
 * With QRIS_ACQUIRER=self the payload is encoded here; with `snap` the acquirer generates it (47)
 * for our platformTrxId after the row exists (a code is never out there without its pay-in), and a
 * generate whose answer did not come is asked again by the same request again (the acquirer dedupes
 * on the reference, so the same code comes back).
 */
@Injectable()
export class QrisService {
  constructor(
    private readonly payins: PayinRepository,
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(QRIS_ACQUIRER) private readonly acquirer: SnapQrisAcquirer | null,
    @Inject(MERCHANT_CLOCK) private readonly clock: MerchantClock,
  ) {}

  async generate(merchantId: number, command: GenerateQrisCommand): Promise<{ payin: Payin; qrImage?: string }> {
    const amount = this.validAmount(command.amount);
    const expirySeconds = command.expirySeconds ?? this.config.payins.qrisExpiry.defaultSeconds;
    if (expirySeconds > this.config.payins.qrisExpiry.maxSeconds) {
      const message = `must be between 60 and ${this.config.payins.qrisExpiry.maxSeconds}`;
      throw new ApiError(ErrorCode.ValidationError, `expirySeconds: ${message}`, [{ field: 'expirySeconds', message }]);
    }
    if (command.notifyUrl) await assertNotifyUrlAllowed(command.notifyUrl, this.config.webhooks);
    const merchant = await this.prisma.merchant.findUniqueOrThrow({ where: { id: merchantId } });
    const now = new Date();
    // The code expires on the merchant's time: a sandbox clock's, when one is ahead.
    const clockNow = await this.clock.now(merchantId, now);
    const platformTrxId = newPlatformTrxId('QR', now, randomBytes(12));
    const fee = payinFee(amount, { pctMilli: merchant.payinFeePctMilli, fixed: merchant.payinFeeFixed });
    const qris: QrisPayment = {
      nmid: merchant.nmid,
      merchantCriteria: merchant.merchantCriteria as QrisPayment['merchantCriteria'],
      mcc: merchant.mcc,
      amount,
      merchantName: merchant.name,
      merchantCity: merchant.city,
      postalCode: merchant.postalCode ?? undefined,
      reference: platformTrxId,
    };
    let payin: Payin;
    try {
      payin = await this.payins.create({
        merchantId,
        merchantTrxId: command.merchantTrxId,
        platformTrxId,
        amount,
        fee,
        feePctMilli: merchant.payinFeePctMilli,
        feeFixed: merchant.payinFeeFixed,
        nmid: merchant.nmid,
        qrisPayload: this.acquirer ? null : encodeQris(qris),
        expiresAt: new Date(clockNow.getTime() + expirySeconds * 1000),
        notifyUrl: command.notifyUrl ?? null,
        logId: currentLogId(),
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // The same request again (a retry after a lost response) gets the code already made, with its
      // current status (paid, expired: the retry must learn it, not be told the id is taken).
      const existing = await this.payins.find(merchantId, command.merchantTrxId);
      if (existing && existing.amount === amount && existing.notifyUrl === (command.notifyUrl ?? null))
        payin = existing;
      else throw new ApiError(ErrorCode.DuplicateMerchantTrxId, 'merchantTrxId has already been used for another QRIS');
    }
    if (payin.qrisPayload === null && payin.status === 'pending')
      payin = await this.generatedByAcquirer(payin, merchant.name);
    const qrImage = command.withImage && payin.qrisPayload ? await qrImageOf(payin.qrisPayload) : undefined;
    return { payin, qrImage };
  }

  /** The acquirer's code for this pay-in (47), stored once; no answer: BANK_UNAVAILABLE, the same request may be sent again. */
  private async generatedByAcquirer(payin: Payin, merchantName: string): Promise<Payin> {
    if (!this.acquirer) throw new Error('a pay-in without a code, and no acquirer to generate it');
    const generated = await this.acquirer.generate({
      platformTrxId: payin.platformTrxId,
      amount: payin.amount,
      expiresAt: payin.expiresAt ?? new Date(Date.now() + this.config.payins.qrisExpiry.defaultSeconds * 1000),
      merchantName,
    });
    if (generated.kind === 'unavailable')
      throw new ApiError(
        ErrorCode.BankUnavailable,
        'The QRIS acquirer did not generate the code; please retry with the same merchantTrxId',
      );
    return this.payins.setQrisPayload(payin.id, generated.qrContent);
  }

  validAmount(input: number): Minor {
    const amount = parseAmount(input);
    if (amount < parseAmount(this.config.payins.minAmount) || amount > parseAmount(this.config.payins.maxAmount)) {
      const message = `must be between ${this.config.payins.minAmount} and ${this.config.payins.maxAmount}`;
      throw new ApiError(ErrorCode.ValidationError, `amount: ${message}`, [{ field: 'amount', message }]);
    }
    return amount;
  }
}
