import { formatAmount, type Minor } from '../money/money';

/** The callback type of a batch whose every row is final (the `type` of the body and X-Callback-Event-Type). Never rename. */
export const BATCH_COMPLETED_CALLBACK = 'disbursement.batch.completed';

/** One per batch: stable across retries and resends (merchants de-duplicate on it). */
export function batchCompletedEventId(batchUuid: string): string {
  return `disbursement.batch.${batchUuid}.completed`;
}

/** What the batch callback says: the batch once every row is final, counted and summed. */
export interface BatchCompletedFacts {
  batchUuid: string;
  batchId: string;
  merchantId: number;
  merchantName: string;
  rowCount: number;
  acceptedCount: number;
  success: number;
  failed: number;
  refused: number;
  reversed: number;
  /** Sums of the successful rows */
  successAmount: Minor;
  successFee: Minor;
  createdAt: Date;
  completedAt: Date;
}

/**
 * The JSON body of `disbursement.batch.completed`, built once in the transaction that marks the
 * batch complete and stored, so every attempt sends, and signs, the same bytes. Each row's own
 * outcome came with its `disbursement.*` callback; this one counts them: the rows refused at
 * submission or later (name check, balance) are `refused`, and the money is what left: the
 * successful rows' amounts and fees.
 */
export function batchCompletedCallbackBody(f: BatchCompletedFacts): string {
  return JSON.stringify({
    id: batchCompletedEventId(f.batchUuid),
    type: BATCH_COMPLETED_CALLBACK,
    createdAt: f.completedAt.toISOString(),
    data: {
      idMerchant: f.merchantId,
      merchantName: f.merchantName,
      batchId: f.batchId,
      status: 'completed',
      rowCount: f.rowCount,
      acceptedCount: f.acceptedCount,
      counts: { success: f.success, failed: f.failed, refused: f.refused, reversed: f.reversed },
      totals: {
        amount: formatAmount(f.successAmount),
        fee: formatAmount(f.successFee),
        totalAmount: formatAmount(f.successAmount + f.successFee),
      },
      createdAt: f.createdAt.toISOString(),
      completedAt: f.completedAt.toISOString(),
    },
  });
}

/** A name as banks compare it: letters and digits, upper case, single spaces (`Budi  santoso.` is `BUDI SANTOSO`). */
export function normalisedAccountName(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}
