import type { RefundResult, SnapQrisAcquirer } from '@pay/bank-rail';
import type { PayinRefundRepository, RefundView } from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop } from '@pay/platform';
import { snapTimestamp } from '@pay/snap';

const BATCH = 50;
/** How many refunds are at the acquirer at once. */
const CONCURRENCY = 8;
/** A refund taken for a call is not taken again for this long (a sender that died: picked up after it). */
const LEASE_MS = 60_000;
/** No answer: asked again after 5 s, 10 s, 20 s ... at most 5 minutes apart, until the acquirer answers. */
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 300_000;

/**
 * Sends debited refunds (payin_refunds `pending`) to the acquirer (issue 44): SNAP 78 with our
 * refund's id as partnerRefundNo, so a call asked again after a timeout is the same refund at the
 * acquirer, never a second one. Its answer: refunded -> `success` (refundNo, refundTime kept);
 * refused -> `failed`, with the ledger's return command and the `payin.refunded` callback in the
 * same transaction; no answer -> still pending, asked again later (an answer we did not get is not
 * a failure). The state is the row (Postgres): a restarted sender picks up where it was. Without
 * an acquirer (QRIS_ACQUIRER=self: no real acquirer, the sandbox) the refund is simulated: it
 * succeeds at once with a refundNo of ours.
 */
export class PayinRefundSender {
  /** Its rounds: started and stopped by the workers, woken by the ledger's notice of a debit */
  readonly loop: WakeLoop;

  constructor(
    private readonly refunds: PayinRefundRepository,
    private readonly acquirer: SnapQrisAcquirer | null,
    private readonly onCallbacks: () => void,
    private readonly logger: Logger,
    intervalMs: number,
    /** Only these merchants' refunds (tests sharing a database); null: all */
    private readonly merchantIds: number[] | null = null,
  ) {
    this.loop = new WakeLoop({
      round: () => this.round(),
      safetyIntervalMs: intervalMs,
      onError: roundFailureLog(logger, 'pay-in refund round failed'),
    });
  }

  /** One round: the due refunds sent, each finished or put back; also what tests call. */
  async send(): Promise<{ taken: number; finished: number; unanswered: number }> {
    const due = await this.refunds.leaseDue(BATCH, LEASE_MS, this.merchantIds);
    let finished = 0;
    let unanswered = 0;
    for (let i = 0; i < due.length; i += CONCURRENCY) {
      await Promise.all(
        due.slice(i, i + CONCURRENCY).map(async (refund) => {
          const result = await this.call(refund);
          if (result.kind === 'unknown') {
            unanswered++;
            const wait = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, refund.attemptCount - 1), RETRY_MAX_MS);
            await this.refunds.retryLater(refund.id, result.reason, new Date(Date.now() + wait));
            this.logger.warn(
              { refundId: refund.id, attempt: refund.attemptCount, reason: result.reason },
              'the acquirer did not answer a refund; it stays pending and is asked again with the same partnerRefundNo',
            );
            return;
          }
          const done = await this.refunds.finish(
            refund.id,
            result.kind === 'refunded'
              ? { status: 'success', refundNo: result.refundNo, refundTime: result.refundTime }
              : { status: 'failed', reason: `${result.code} ${result.message}`.trim() },
          );
          if (!done) return;
          finished++;
          if (done.callback) this.onCallbacks();
        }),
      );
    }
    return { taken: due.length, finished, unanswered };
  }

  private async call(refund: RefundView): Promise<RefundResult> {
    if (!this.acquirer)
      return {
        kind: 'refunded',
        refundNo: `SBX-RFD-${refund.id.slice(0, 8).toUpperCase()}`,
        refundTime: snapTimestamp(new Date()),
      };
    try {
      return await this.acquirer.refund({
        platformTrxId: refund.platformTrxId,
        refundId: refund.id,
        amount: refund.amount,
        reason: refund.reason ?? '',
      });
    } catch (error) {
      return { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private async round(): Promise<RoundResult> {
    const { taken } = await this.send();
    return { more: taken === BATCH };
  }
}
