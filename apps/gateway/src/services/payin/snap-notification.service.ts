import { Inject, Injectable } from '@nestjs/common';
import type { SnapQrisAcquirer } from '@pay/bank-rail';
import type { Minor } from '@pay/domain';
import { type NoticeOutcome, PayinRepository } from '@pay/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, QRIS_ACQUIRER } from '../../gateway.tokens';

/** A SNAP answer: the HTTP status and the envelope `{ responseCode, responseMessage }` (service 52). */
export interface SnapAnswer {
  http: number;
  body: { responseCode: string; responseMessage: string };
}

type Refusal = Extract<NoticeOutcome, { outcome: 'refused' }>['reason'];

/** Why a verified notification was not applied, in SNAP's codes for service 52 (reference §3). */
const REFUSALS: Record<Refusal, [http: number, caseCode: string, message: string]> = {
  UNKNOWN_REFERENCE: [404, '01', 'Transaction Not Found'],
  AMOUNT_MISMATCH: [404, '13', 'Invalid Amount'],
  QR_EXPIRED: [403, '00', 'Transaction Expired'],
  ALREADY_FINAL: [404, '18', 'Inconsistent Request. The payment is final with another reference'],
  ACQUIRER_REFERENCE_CONFLICT: [404, '18', 'Inconsistent Request. The reference paid another code'],
  PAID_AT_INVALID: [400, '01', 'Invalid Field Format paidTime'],
};

const answer = (http: number, caseCode: string, responseMessage: string): SnapAnswer => ({
  http,
  body: { responseCode: `${http}52${caseCode}`, responseMessage },
});

/**
 * The acquirer's payment notification over SNAP (service 52, QRIS_ACQUIRER=snap): its RSA signature
 * over the exact bytes and path, X-TIMESTAMP within ACQUIRER_CLOCK_SKEW_SECONDS, then applied once
 * (PayinRepository.applyNotice, the path of every notification: the same reference again is a
 * duplicate, accepted and changing nothing). A notification from the SNAP provider simulator
 * (SNAP_ACQUIRER_SIMULATOR_URL) is sandbox money (docs/decisions/0047-sandbox-money.md).
 */
@Injectable()
export class SnapNotificationService {
  constructor(
    private readonly payins: PayinRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(QRIS_ACQUIRER) private readonly acquirer: SnapQrisAcquirer | null,
  ) {}

  async receive(
    n: { path: string; headers: Record<string, string | undefined>; rawBody: Buffer },
    now = new Date(),
  ): Promise<SnapAnswer> {
    // QRIS_ACQUIRER=self: nobody is expected here; answered as SNAP would a client it does not know.
    if (!this.acquirer) return answer(401, '00', 'Unauthorized. No SNAP acquirer is configured');
    const skewMs = this.config.acquirer.clockSkewSeconds * 1000;
    const reading = this.acquirer.readNotification({ ...n, now, windowMs: skewMs });
    if (!reading.ok) return answer(reading.http, reading.caseCode, reading.message);
    const q = reading.notification;
    const qris = this.config.acquirer.qris;
    const outcome = await this.payins.applyNotice(
      {
        acquirerReference: q.referenceNo,
        platformTrxId: q.platformTrxId,
        amount: q.amount as Minor,
        status: q.status,
        rrn: q.rrn,
        issuer: q.issuer,
        // A notification without its payment time is taken as paid when it arrived.
        paidAt: q.paidAt ?? now,
        failureReason: q.status === 'failed' ? 'The acquirer reports the payment failed' : null,
        sandbox: qris.kind === 'snap' && qris.simulatorUrl !== null,
      },
      n.rawBody.toString('utf8'),
      now,
      skewMs,
    );
    if (outcome.outcome === 'refused') return answer(...REFUSALS[outcome.reason]);
    return answer(200, '00', 'Successful');
  }
}
