import { IncomingRecord, RecordHandler } from '../transport/bus-transport.interface';

export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export interface DeliveryPolicy {
  /** Deliveries (first one included) before a failing record is dead-lettered. */
  maxDeliveries: number;
  backoff: RetryBackoff;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = { maxDeliveries: 5, backoff: { initialMs: 200, maxMs: 10_000 } };

export function backoffDelay(backoff: RetryBackoff, failedDeliveries: number): number {
  const exp = backoff.initialMs * 2 ** Math.max(0, failedDeliveries - 1);
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
  | { kind: 'dead-letter'; deliveryCount: number; error: unknown }
  /** Shutdown or lost ownership during a retry: leave the record unacknowledged for the next owner. */
  | { kind: 'aborted'; deliveryCount: number };

export interface DeliveryHooks {
  /** Checked before every retry; false aborts without acknowledging. */
  canContinue(): boolean;
  /** Lets the transport persist the new delivery count (Redis) or keep the session alive (Kafka). */
  beforeRetry?(deliveryCount: number): Promise<void>;
  onFailure?(error: unknown, deliveryCount: number, retryInMs: number | null): void;
  signal?: AbortSignal;
}

/**
 * Retries in place rather than re-queueing so a failing record blocks the records behind it (same partition):
 * skipping ahead would break per-key order.
 */
export async function deliverWithRetry(
  record: IncomingRecord,
  handler: RecordHandler,
  policy: DeliveryPolicy,
  hooks: DeliveryHooks,
): Promise<DeliveryOutcome> {
  let deliveryCount = Math.max(1, record.deliveryCount);
  if (deliveryCount > policy.maxDeliveries) {
    // Delivered before by a member that died mid-handler, every time: a poison record; stop the crash loop.
    return { kind: 'dead-letter', deliveryCount, error: new Error(`exceeded ${policy.maxDeliveries} deliveries without an acknowledgement`) };
  }
  for (;;) {
    try {
      await handler({ ...record, deliveryCount });
      return { kind: 'handled', deliveryCount };
    } catch (error) {
      if (deliveryCount >= policy.maxDeliveries) {
        hooks.onFailure?.(error, deliveryCount, null);
        return { kind: 'dead-letter', deliveryCount, error };
      }
      const delay = backoffDelay(policy.backoff, deliveryCount);
      hooks.onFailure?.(error, deliveryCount, delay);
      await sleep(delay, hooks.signal);
      if (!hooks.canContinue()) return { kind: 'aborted', deliveryCount };
      deliveryCount += 1;
      await hooks.beforeRetry?.(deliveryCount);
    }
  }
}
