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

/** Where a record stands between deliveries; Kafka keeps it in memory across pauses of the partition. */
export interface DeliveryState {
  /** Deliveries so far that failed with a non-transient error, plus the current one (what `maxDeliveries` bounds). */
  deliveryCount: number;
  /** Consecutive transient failures (0 when the last failure was not transient). */
  transientFailures: number;
}

/** The outcome of one delivery: done (handled or to be dead-lettered), or to be delivered again after `delayMs`. */
export type DeliveryStep =
  | Exclude<DeliveryOutcome, { kind: 'aborted' }>
  | { kind: 'retry'; delayMs: number; fault: Exclude<FaultKind, 'permanent'>; error: unknown; next: DeliveryState };

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
  /** Lets the transport persist the delivery count (Redis). */
  beforeRetry?(deliveryCount: number): Promise<void>;
  onFailure?(report: FailureReport): void;
  signal?: AbortSignal;
}

/**
 * The state after a failure that was not the handler's to judge (a dead-letter write that failed):
 * wait as for a dependency away, without spending a delivery.
 */
export function transientRetry(policy: DeliveryPolicy, state: DeliveryState): { delayMs: number; next: DeliveryState } {
  const next = { deliveryCount: state.deliveryCount, transientFailures: state.transientFailures + 1 };
  return { delayMs: backoffDelay(policy.backoff, next.transientFailures), next };
}

/**
 * One delivery, classified; the one place that decides what a failure means:
 *
 * - transient (PostgreSQL, Redis or the broker away; deadlock; serialization failure): retried for
 *   as long as it takes; money is never dead-lettered because a dependency was down;
 * - permanent (unparseable, fails validation, unknown contract version): dead-lettered at once;
 * - unknown (a bug): retried up to `maxDeliveries` deliveries, then dead-lettered.
 */
export async function deliverOnce(
  record: IncomingRecord,
  handler: RecordHandler,
  policy: DeliveryPolicy,
  state: DeliveryState,
  onFailure?: (report: FailureReport) => void,
): Promise<DeliveryStep> {
  const { deliveryCount, transientFailures } = state;
  try {
    await handler({ ...record, deliveryCount });
    return { kind: 'handled', deliveryCount };
  } catch (error) {
    const fault = classifyFault(error);
    if (fault === 'permanent' || (fault === 'unknown' && deliveryCount >= policy.maxDeliveries)) {
      onFailure?.({ error, fault, deliveryCount, transientFailures, retryInMs: null });
      return { kind: 'dead-letter', deliveryCount, error, fault };
    }
    if (fault === 'transient') {
      const { delayMs, next } = transientRetry(policy, state);
      onFailure?.({ error, fault, deliveryCount, transientFailures: next.transientFailures, retryInMs: delayMs });
      return { kind: 'retry', delayMs, fault, error, next };
    }
    const delayMs = backoffDelay(policy.backoff, deliveryCount);
    onFailure?.({ error, fault, deliveryCount, transientFailures: 0, retryInMs: delayMs });
    return { kind: 'retry', delayMs, fault, error, next: { deliveryCount: deliveryCount + 1, transientFailures: 0 } };
  }
}

/**
 * Retries in place rather than re-queueing so a failing record blocks the records behind it (same
 * partition): skipping ahead would break per-key order, and while a dependency is down the
 * consumer takes no new work, it waits (capped backoff, no spinning). Redis Streams delivers
 * this way; Kafka takes one step at a time and pauses the partition in between (kafka-batch.consumer.ts).
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
  let state: DeliveryState = { deliveryCount: Math.max(1, record.deliveryCount), transientFailures: 0 };
  for (;;) {
    const step = await deliverOnce(record, handler, policy, state, hooks.onFailure);
    if (step.kind !== 'retry') return step;
    await sleep(step.delayMs, hooks.signal);
    if (!hooks.canContinue()) return { kind: 'aborted', deliveryCount: state.deliveryCount };
    state = step.next;
    // If this fails (Redis away, Kafka rebalancing) the record stays unacknowledged and is delivered again later.
    await hooks.beforeRetry?.(state.deliveryCount);
  }
}
