import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { computeSignature, parseAmount, verifySignatureHeader } from '@pay/domain';
import { type NoticeOutcome, type Payin, PayinRepository } from '@pay/persistence';
import { ApiError, refuseControlCharacters, validationError } from '@pay/platform';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';
import { AcquirerNotification } from './acquirer-notification';

export const ACQUIRER_SIGNATURE_HEADER = 'x-acquirer-signature';

/** A notification as it arrived: the exact bytes (the signature is over them) and the signature header. */
export interface AcquirerNotificationCommand {
  rawBody: string;
  signature: string | undefined;
  /** Set only by the sandbox payer (its pay-ins are sandbox money); never from a request */
  sandbox?: true;
}

const REFUSALS: Record<Extract<NoticeOutcome, { outcome: 'refused' }>['reason'], ErrorCode> = {
  UNKNOWN_REFERENCE: ErrorCode.PayinNotFound,
  AMOUNT_MISMATCH: ErrorCode.AmountMismatch,
  QR_EXPIRED: ErrorCode.QrExpired,
  ALREADY_FINAL: ErrorCode.PayinAlreadyFinal,
  PAID_AT_INVALID: ErrorCode.PaidAtInvalid,
  ACQUIRER_REFERENCE_CONFLICT: ErrorCode.AcquirerReferenceConflict,
};

/**
 * The one path every acquirer notification takes (the real acquirer's HTTP call and the
 * sandbox payer alike): verify the HMAC over the raw body, validate, apply once.
 * Signature: `X-Acquirer-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(ACQUIRER_SECRET, "<t>.<raw body>")>`.
 * During a rotation a signature under any of ACQUIRER_SECRET_PREVIOUS is accepted too, so the
 * acquirer can switch to the new secret at its own moment; the sandbox always signs with the new one.
 */
@Injectable()
export class AcquirerService {
  constructor(
    private readonly payins: PayinRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** What the sandbox (or a test) sends: the body signed as the acquirer signs it. */
  sign(rawBody: string, now = new Date()): string {
    const t = Math.floor(now.getTime() / 1000);
    return `t=${t},v1=${computeSignature(this.config.acquirer.secret, t, rawBody)}`;
  }

  async receive(
    { rawBody, signature, sandbox }: AcquirerNotificationCommand,
    now = new Date(),
  ): Promise<{ payin: Payin; duplicate: boolean }> {
    const nowSec = Math.floor(now.getTime() / 1000);
    const secrets = [this.config.acquirer.secret, ...this.config.acquirer.previousSecrets];
    if (!signature || !secrets.some((secret) => verifySignatureHeader(signature, rawBody, secret, nowSec))) {
      throw new ApiError(ErrorCode.SignatureInvalid);
    }
    const notification = await this.parse(rawBody);
    const outcome = await this.payins.applyNotice(
      {
        acquirerReference: notification.acquirerReference,
        platformTrxId: notification.platformTrxId,
        amount: parseAmount(notification.amount),
        status: notification.status,
        rrn: notification.rrn ?? null,
        issuer: notification.issuer ?? null,
        paidAt: new Date(notification.paidAt),
        failureReason: notification.failureReason ?? null,
        sandbox: sandbox === true,
      },
      rawBody,
      now,
      this.config.acquirer.clockSkewSeconds * 1000,
    );
    if (outcome.outcome === 'refused') throw new ApiError(REFUSALS[outcome.reason]);
    return { payin: outcome.payin, duplicate: outcome.outcome === 'duplicate' };
  }

  private async parse(rawBody: string): Promise<AcquirerNotification> {
    let plain: unknown;
    try {
      plain = JSON.parse(rawBody);
    } catch {
      throw new ApiError(ErrorCode.ValidationError, 'Request body is not valid JSON');
    }
    if (typeof plain !== 'object' || plain === null || Array.isArray(plain))
      throw new ApiError(ErrorCode.ValidationError, 'Request body must be a JSON object');
    refuseControlCharacters(plain);
    const notification = plainToInstance(AcquirerNotification, plain);
    const errors = await validate(notification, { whitelist: true, forbidNonWhitelisted: true });
    if (errors.length) throw validationError(errors);
    return notification;
  }
}
