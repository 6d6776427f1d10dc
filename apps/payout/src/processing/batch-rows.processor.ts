import { randomBytes, randomUUID } from 'node:crypto';
import { type BankRail, UnknownBankError } from '@pay/bank-rail';
import { ErrorCode, ERROR_MESSAGE } from '@pay/contracts';
import {
  BATCH_COMPLETED_CALLBACK,
  batchCompletedCallbackBody,
  batchCompletedEventId,
  normalisedAccountName,
  platformTrxId,
} from '@pay/domain';
import {
  type BatchRepository,
  type ClaimedBatchRow,
  type CompletedBatch,
  type NameCheckOutcome,
  sql,
  type SqlClient,
} from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, runWithLogId, WakeLoop } from '@pay/platform';

export interface BatchRowsOptions {
  /** Rows name-checked per round (PAYOUT_BATCH_SIZE) */
  batchSize: number;
  /** How long a claimed row is reserved for this worker (PAYOUT_LEASE_MS) */
  leaseMs: number;
  /** Wait before asking the bank again after it timed out or failed (PAYOUT_TIMEOUT_RETRY_MS) */
  timeoutRetryMs: number;
  /** The safety net between rounds (PAYOUT_POLL_INTERVAL_MS) */
  safetyIntervalMs: number;
}

const DUPLICATE = {
  code: ErrorCode.DuplicateMerchantTrxId,
  message: ERROR_MESSAGE[ErrorCode.DuplicateMerchantTrxId] as string,
};

/**
 * The asynchronous half of batch payouts (issue 44; docs/batch-payouts.md): each round
 * claims the accepted rows due for their name check, asks the bank through the rail (in
 * parallel), and records in one statement each row's disbursement with its payout.debit (the
 * ledger decides it as a single transfer's: the balance covers it, or INSUFFICIENT_BALANCE), or
 * its refusal (not found, blocked, name mismatch), or its retry (the bank away: the row waits,
 * never fails for it). The same round marks complete each batch whose every row is final and
 * writes its `disbursement.batch.completed` callback, once. Woken by a batch's submission, by the
 * ledger's decisions and by the payout loop's outcomes; the safety interval covers lost wake-ups.
 */
export class BatchRowsProcessor {
  private readonly loop: WakeLoop;

  constructor(
    private readonly batches: BatchRepository,
    private readonly rail: BankRail,
    private readonly logger: Logger,
    private readonly options: BatchRowsOptions,
  ) {
    this.loop = new WakeLoop({
      round: () => this.processDue(),
      safetyIntervalMs: options.safetyIntervalMs,
      onError: roundFailureLog(logger, 'batch rows processing failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One round: the due name checks, then the batches that are now complete. */
  async processDue(): Promise<RoundResult & { checked: number; completed: number }> {
    const { claimed, nextDueAt } = await this.batches.claimChecks(this.options.batchSize, this.options.leaseMs);
    if (claimed.length > 0) {
      const outcomes = await Promise.all(claimed.map((row) => this.check(row)));
      await this.batches.recordChecks(outcomes, DUPLICATE);
    }
    const completed = await this.batches.completeFinished(20, (tx, done) => announce(tx, done));
    for (const b of completed)
      runWithLogId(b.logId ?? b.id, () =>
        this.logger.info(
          {
            batchId: b.batchId,
            merchantId: b.merchantId,
            ...b.summary,
            successAmount: String(b.summary.successAmount),
          },
          'batch completed',
        ),
      );
    const retryAt = claimed.length > 0 ? Date.now() + this.options.timeoutRetryMs : Infinity;
    const earliest = Math.min(nextDueAt?.getTime() ?? Infinity, retryAt);
    return {
      checked: claimed.length,
      completed: completed.length,
      more: claimed.length === this.options.batchSize || completed.length === 20,
      nextDueAt: Number.isFinite(earliest) ? new Date(earliest) : null,
    };
  }

  /** The bank's name for the row's account: fund it, refuse it with the reason, or ask again later. */
  private async check(row: ClaimedBatchRow): Promise<NameCheckOutcome> {
    try {
      const lookup = await this.rail.lookupAccount(row.bankCode, row.accountNo);
      if (lookup.kind === 'not_found') return refuse(row, ErrorCode.AccountNotFound);
      if (lookup.kind === 'blocked') return refuse(row, ErrorCode.AccountBlocked);
      if (
        row.accountName !== null &&
        normalisedAccountName(row.accountName) !== normalisedAccountName(lookup.accountName)
      )
        return refuse(row, ErrorCode.AccountNameMismatch);
      return {
        kind: 'fund',
        row,
        disbursementId: randomUUID(),
        platformTrxId: platformTrxId('DSB', new Date(), randomBytes(12)),
        accountName: lookup.accountName,
      };
    } catch (err) {
      if (err instanceof UnknownBankError) return refuse(row, ErrorCode.UnknownBankCode);
      runWithLogId(row.logId ?? row.batchId, () =>
        this.logger.warn(
          { batchId: row.batchId, rowNo: row.rowNo, err: err instanceof Error ? err.message : String(err) },
          'name check: the bank did not answer; the row will be checked again',
        ),
      );
      return { kind: 'retry', row, at: new Date(Date.now() + this.options.timeoutRetryMs) };
    }
  }
}

function refuse(row: ClaimedBatchRow, code: ErrorCode): NameCheckOutcome {
  return { kind: 'refuse', row, code, message: ERROR_MESSAGE[code] ?? code };
}

/**
 * The batches' callbacks to their notifyUrl, in the transaction that completes them; the dispatcher signs and sends them.
 * Without a notifyUrl (url ''): the event only logged, no delivery (webhook_deliveries_record_event).
 */
async function announce(tx: SqlClient, batches: CompletedBatch[]): Promise<void> {
  const called = batches;
  if (called.length === 0) return;
  const bodies = called.map((b) =>
    batchCompletedCallbackBody({
      batchUuid: b.id,
      batchId: b.batchId,
      merchantId: b.merchantId,
      merchantName: b.merchantName,
      rowCount: b.rowCount,
      acceptedCount: b.acceptedCount,
      success: b.summary.success,
      failed: b.summary.failed,
      refused: b.summary.refused,
      reversed: b.summary.reversed,
      successAmount: b.summary.successAmount,
      successFee: b.summary.successFee,
      createdAt: b.createdAt,
      completedAt: b.completedAt,
    }),
  );
  await tx.execute(sql`
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
    SELECT gen_random_uuid(), t.event_id, ${BATCH_COMPLETED_CALLBACK}::text, t.merchant_id, t.url, t.body, 'pending', now(), t.log_id, now(), now()
      FROM unnest(${called.map((b) => batchCompletedEventId(b.id))}::text[], ${called.map((b) => b.merchantId)}::int[],
                  ${called.map((b) => b.notifyUrl ?? '')}::text[], ${bodies}::text[], ${called.map((b) => b.logId)}::text[])
        AS t(event_id, merchant_id, url, body, log_id)
     ORDER BY t.merchant_id -- each merchant's event counter locked in one order by every writer: no deadlock
    ON CONFLICT (event_id) DO NOTHING`);
}
