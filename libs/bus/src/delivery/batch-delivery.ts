import { classifyFault } from '@pay/platform';
import type { BatchHandler, IncomingRecord } from '../transport/bus-transport.interface';
import { backoffDelay, type DeliveryPolicy } from './delivery.policy';

export const DEFAULT_MAX_BATCH = 200;

/** Done; or to be tried again whole after `delayMs` (a dependency away); or to be delivered one record at a time. */
export type BatchStep =
  | { kind: 'handled' }
  | { kind: 'retry'; delayMs: number; transientFailures: number; error: unknown }
  | { kind: 'one-by-one'; error: unknown };

/**
 * One delivery of a batch. Only a transient failure keeps the batch together: any other one may
 * be a single record that can never succeed, which only a delivery per record can tell (and
 * dead-letter alone) without failing the records around it.
 */
export async function deliverBatchOnce(
  records: IncomingRecord[],
  handler: BatchHandler,
  policy: DeliveryPolicy,
  transientFailures: number,
): Promise<BatchStep> {
  try {
    await handler(records);
    return { kind: 'handled' };
  } catch (error) {
    if (classifyFault(error) !== 'transient') return { kind: 'one-by-one', error };
    const failures = transientFailures + 1;
    return { kind: 'retry', delayMs: backoffDelay(policy.backoff, failures), transientFailures: failures, error };
  }
}

/** How many of `records`, from `start`, go together in the next batch: 0 or 1 mean one at a time. */
export function batchLength(records: readonly { deliveryCount: number }[], start: number, maxBatch: number): number {
  let n = 0;
  while (start + n < records.length && n < maxBatch && records[start + n].deliveryCount <= 1) n++;
  return n;
}
