import { type BankRail, RailTimeoutError, type TransferStatus } from '@pay/bank-rail';
import type { Disbursement, PayoutRepository } from '@pay/persistence';
import { type Logger, runWithLogId } from '@pay/platform';

export interface PayoutProcessorOptions {
  /** Disbursements claimed per tick */
  batchSize: number;
  /** How long a claimed disbursement is reserved for this worker */
  leaseMs: number;
  /** Wait before asking the rail again after it timed out */
  timeoutRetryMs: number;
}

/**
 * Drives each debited disbursement pending -> success | failed through the bank rail.
 * Every step is safe to repeat: the rail is called with the disbursement id as idempotency
 * key, the submission is recorded before the call, and after a crash (lease expired) the
 * next worker asks the rail for the transfer's status before submitting again.
 */
export class PayoutProcessor {
  constructor(
    private readonly payouts: PayoutRepository,
    private readonly rail: BankRail,
    private readonly logger: Logger,
    private readonly options: PayoutProcessorOptions,
  ) {}

  /** One tick: claim what is due and advance each. Returns how many were advanced. */
  async processDue(onlyId?: string): Promise<number> {
    const claimed = await this.payouts.claimDue(this.options.batchSize, this.options.leaseMs, onlyId);
    await Promise.all(claimed.map((d) => runWithLogId(d.logId ?? d.id, () => this.advance(d))));
    return claimed.length;
  }

  private async advance(d: Disbursement): Promise<void> {
    let status: TransferStatus | null;
    try {
      status = d.submittedAt ? await this.rail.transferStatus(d.id) : null;
      if (!status) {
        await this.payouts.markSubmitting(d.id);
        status = await this.rail.submitTransfer({ idempotencyKey: d.id, bankCode: d.bankCode, accountNo: d.accountNo, accountName: d.accountName, amount: d.amount });
        this.logger.info({ disbursementId: d.id, state: status.state }, 'payout submitted to the rail');
      }
    } catch (err) {
      const timeout = err instanceof RailTimeoutError;
      this.logger.warn({ disbursementId: d.id, err: err instanceof Error ? err.message : String(err) }, timeout ? 'rail timed out; will ask again' : 'rail call failed; will retry');
      await this.payouts.recheckAt(d.id, new Date(Date.now() + this.options.timeoutRetryMs));
      return;
    }

    switch (status.state) {
      case 'processing':
        await this.payouts.recheckAt(d.id, new Date(Date.now() + status.checkAfterMs), status.reference);
        return;
      case 'completed':
        if (await this.payouts.succeed(d, status.reference, status.completedAt)) {
          this.logger.info({ disbursementId: d.id, merchantId: d.merchantId }, 'disbursement succeeded');
        }
        return;
      case 'failed':
        if (await this.payouts.fail(d, status.reference, status.reason, status.failedAt)) {
          this.logger.info({ disbursementId: d.id, merchantId: d.merchantId, reason: status.reason }, 'disbursement failed; refund sent to the ledger');
        }
        return;
    }
  }
}
