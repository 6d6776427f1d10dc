import type { QrState, SnapQrisAcquirer } from '@pay/bank-rail';
import type { Minor } from '@pay/domain';
import type { AcquirerNotice, DuePayin, PayinExpiryRepository, PayinRepository } from '@pay/persistence';
import type { Logger } from '@pay/platform';

/** How many codes are asked about at once. */
const CONCURRENCY = 8;

export interface AcquirerCheckRound {
  /** Codes the acquirer says were paid (or failed): applied as its notification would have been */
  resolved: number;
  /** Codes whose acquirer did not answer: they stay pending, asked again next round */
  held: string[];
}

/**
 * Before a code expires, its acquirer is asked (QRIS query, 51; QRIS_ACQUIRER=snap): a payment whose
 * notification never came (lost, refused, never sent) is applied from the answer through the same
 * path as a notification (PayinRepository.applyNotice: once, whatever else arrives), so no paid code
 * is expired. A code the acquirer calls pending, expired or unknown to it expires as usual; one it
 * did not answer for stays pending until it does (an answer we did not get is not "unpaid").
 */
export class PayinAcquirerCheck {
  constructor(
    private readonly acquirer: SnapQrisAcquirer,
    private readonly payins: PayinRepository,
    private readonly expiry: PayinExpiryRepository,
    private readonly logger: Logger,
    private readonly opts: { clockSkewMs: number; sandbox: boolean },
  ) {}

  async round(now: Date, limit: number): Promise<AcquirerCheckRound> {
    const due = await this.expiry.due(now, limit);
    const held: string[] = [];
    let resolved = 0;
    for (let i = 0; i < due.length; i += CONCURRENCY) {
      await Promise.all(
        due.slice(i, i + CONCURRENCY).map(async (payin) => {
          const state = await this.acquirer.query(payin.platformTrxId);
          if (state.state === 'unknown') {
            held.push(payin.id);
            this.logger.warn(
              { platformTrxId: payin.platformTrxId, reason: state.reason },
              'the acquirer did not say whether a code due to expire was paid; it stays pending until it does',
            );
            return;
          }
          const notice = this.noticeOf(payin, state);
          if (!notice) return;
          const outcome = await this.payins.applyNotice(
            notice,
            JSON.stringify({ source: 'qr-mpm-query', ...state, amount: notice.amount.toString() }),
            now,
            this.opts.clockSkewMs,
          );
          if (outcome.outcome === 'accepted') resolved++;
          if (outcome.outcome === 'refused')
            this.logger.warn(
              { platformTrxId: payin.platformTrxId, reason: outcome.reason },
              "the acquirer's answer about a code due to expire was refused",
            );
        }),
      );
    }
    return { resolved, held };
  }

  private noticeOf(payin: DuePayin, state: Exclude<QrState, { state: 'unknown' }>): AcquirerNotice | null {
    switch (state.state) {
      case 'paid':
        return {
          acquirerReference: state.referenceNo,
          platformTrxId: payin.platformTrxId,
          amount: state.amount as Minor,
          status: 'success',
          rrn: state.rrn,
          issuer: state.issuer,
          // Paid, says the acquirer, so before the code expired: without its time, at the expiry.
          paidAt: state.paidAt ?? payin.expiresAt,
          failureReason: null,
          sandbox: this.opts.sandbox,
        };
      case 'failed':
        return {
          acquirerReference: state.referenceNo ?? `query:${payin.platformTrxId}`,
          platformTrxId: payin.platformTrxId,
          amount: payin.amount,
          status: 'failed',
          rrn: null,
          issuer: null,
          paidAt: payin.expiresAt,
          failureReason: 'The acquirer reports the payment failed',
          sandbox: this.opts.sandbox,
        };
      default:
        return null;
    }
  }
}
