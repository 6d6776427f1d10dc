import { formatAmount, formatJakartaDateTime } from '@pay/domain';
import type {
  CallbackAttemptView,
  CallbackDeliveryFields,
  CallbackDeliveryView,
  DayTotalsView,
  RecentDeliveryView,
} from '@pay/contracts/dashboard';
import type { DayTotals, RecentDelivery, WebhookAttempt, WebhookDelivery } from '@pay/persistence';

/** Enough of a response body to tell what the merchant's server said. */
const EXCERPT_CHARS = 300;

/** One callback attempt: when, what came back, how long it took. */
export function presentAttempt(a: WebhookAttempt): CallbackAttemptView {
  return {
    attemptNo: a.attemptNo,
    at: a.startedAt.toISOString(),
    httpStatus: a.statusCode,
    latencyMs: a.latencyMs,
    responseExcerpt: a.responseBody === null ? null : a.responseBody.slice(0, EXCERPT_CHARS),
    error: a.error,
    outcome: a.outcome,
  };
}

function deliveryFields(d: WebhookDelivery): CallbackDeliveryFields {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    url: d.url,
    status: d.status,
    attemptCount: d.attemptCount,
    resendCount: d.resendCount,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}

/** A delivery of one transaction, with every attempt, oldest first. */
export function presentDeliveryWithAttempts(d: WebhookDelivery & { attempts: WebhookAttempt[] }): CallbackDeliveryView {
  return { ...deliveryFields(d), attempts: d.attempts.map(presentAttempt) };
}

/** A row of the recent deliveries: what it is about and its last attempt. */
export function presentRecentDelivery(d: RecentDelivery): RecentDeliveryView {
  return {
    ...deliveryFields(d),
    kind: d.disbursementId ? 'payout' : d.payinId ? 'payin' : 'test',
    merchantTrxId: d.merchantTrxId,
    lastAttempt: d.lastAttempt ? presentAttempt(d.lastAttempt) : null,
  };
}

export function presentDay(d: DayTotals): DayTotalsView {
  return {
    date: d.date,
    payinAmount: formatAmount(d.payinAmount),
    payinCount: d.payinCount,
    payoutAmount: formatAmount(d.payoutAmount),
    payoutCount: d.payoutCount,
  };
}

/** A Jakarta time as the API writes success_at, or null. */
export function jakartaOrNull(at: Date | null | undefined): string | null {
  return at ? formatJakartaDateTime(at) : null;
}
