import { classifyFault, type FaultKind } from '@pay/platform';
import { IncomingRecord, RecordHandler } from '../transport/bus-transport.interface';

export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export interface DeliveryPolicy {
  /**
   * Deliveries (first one included) that may fail with an *unknown* error before the record is
   * dead-lettered. Transient failures (a dependency away) never count; permanent ones (the
   * record can never succeed) are dead-lettered at the first failure.
   */
  maxDeliveries: number;
  backoff: RetryBackoff;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = { maxDeliveries: 5, backoff: { initialMs: 200, maxMs: 10_000 } };

export function backoffDelay(backoff: RetryBackoff, failedDeliveries: number): number {
  const exp = backoff.initialMs * 2 ** Math.max(0, Math.min(30, failedDeliveries - 1));
  return Math.min(backoff.maxMs, exp);
}

/** Resolves after `ms`, or as soon as `signal` aborts (shutdown must not wait out a long backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type DeliveryOutcome =
  | { kind: 'handled'; deliveryCount: number }
  | { kind: 'dead-letter'; deliveryCount: number; error: unknown; fault: Exclude<FaultKind, 'transient'> }
  /** Shutdown or lost ownership during a retry: leave the record unacknowledged for the next owner. */
  | { kind: 'aborted'; deliveryCount: number };

export interface FailureReport {
  error: unknown;
  fault: FaultKind;
  /** Deliveries that failed with a non-transient error so far (what `maxDeliveries` bounds). */
  deliveryCount: number;
  /** Consecutive transient failures of this record (0 when the last failure was not transient). */
  transientFailures: number;
  /** null when the record is being dead-lettered. */
  retryInMs: number | null;
}

export interface DeliveryHooks {
  /** Checked before every retry; false aborts without acknowledging. */
  canContinue(): boolean;
  /** Lets the transport persist the delivery count (Redis) or keep the session alive (Kafka). */
  beforeRetry?(deliveryCount: number): Promise<void>;
  onFailure?(report: FailureReport): void;
  signal?: AbortSignal;
}

/**
 * Retries in place rather than re-queueing so a failing record blocks the records behind it (same
 * partition): skipping ahead would break per-key order, and while a dependency is down the
 * consumer takes no new work, it waits (capped backoff, no spinning).
 *
 * - transient (PostgreSQL, Redis or the broker away; deadlock; serialization failure): retried for
 *   as long as it takes; money is never dead-lettered because a dependency was down;
 * - permanent (unparseable, fails validation, unknown contract version): dead-lettered at once;
 * - unknown (a bug): retried up to `maxDeliveries` deliveries, then dead-lettered.
 */
export async function deliverWithRetry(
  record: IncomingRecord,
  handler: RecordHandler,
  policy: DeliveryPolicy,
  hooks: DeliveryHooks,
): Promise<DeliveryOutcome> {
  // A reclaimed record may arrive with a count above the limit (its owners died mid-handler, or lost their lease
  // during an outage): it still gets a delivery, and is dead-lettered only if that one fails for a reason other
  // than a dependency being away.
  let deliveryCount = Math.max(1, record.deliveryCount);
  let transientFailures = 0;
  for (;;) {
    try {
      await handler({ ...record, deliveryCount });
      return { kind: 'handled', deliveryCount };
    } catch (error) {
      const fault = classifyFault(error);
      if (fault === 'permanent' || (fault === 'unknown' && deliveryCount >= policy.maxDeliveries)) {
        hooks.onFailure?.({ error, fault, deliveryCount, transientFailures, retryInMs: null });
        return { kind: 'dead-letter', deliveryCount, error, fault };
      }
      transientFailures = fault === 'transient' ? transientFailures + 1 : 0;
      const delay = backoffDelay(policy.backoff, fault === 'transient' ? transientFailures : deliveryCount);
      hooks.onFailure?.({ error, fault, deliveryCount, transientFailures, retryInMs: delay });
      await sleep(delay, hooks.signal);
      if (!hooks.canContinue()) return { kind: 'aborted', deliveryCount };
      if (fault === 'unknown') deliveryCount += 1;
      // If this fails (Redis away, Kafka rebalancing) the record stays unacknowledged and is delivered again later.
      await hooks.beforeRetry?.(deliveryCount);
    }
  }
}
