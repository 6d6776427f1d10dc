import {
  classifyResponse,
  nextAttemptDelayMs,
  parseRetryAfter,
  responseExcerpt,
  signatureHeader,
  WEBHOOK_MAX_UNRECORDED_CLAIMS,
} from '@pay/domain';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type MerchantClock,
  REAL_TIME,
  type WebhookDeliveryRepository,
} from '@pay/persistence';
import type { Logger } from '@pay/platform';
import { postWebhook, type SendOptions, type SendResult } from './webhook.sender';

export interface DeliveryOptions extends SendOptions {
  /** Added to the timeout to form the lease of an attempt; after it a dead worker's attempt is taken over */
  leaseGraceMs: number;
}

const STORED_RESPONSE_CHARS = 1024;

/**
 * One webhook attempt: signed POST, outcome classified, next attempt scheduled, all recorded.
 * Time and randomness are injected so the retry schedule is testable without waiting;
 * everything else is real (Postgres, HTTP).
 */
export class WebhookDeliveryService {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly logger: Logger,
    private readonly options: DeliveryOptions,
    private readonly clock: () => Date = () => new Date(),
    private readonly random: () => number = Math.random,
    /** Whose time an attempt is recorded at and its retry scheduled from: real time but for a merchant's sandbox clock */
    private readonly merchantClock: MerchantClock = REAL_TIME,
  ) {}

  /** One attempt if the delivery is due; returns the delivery's state after it, or null if not claimable. */
  async attempt(deliveryId: string): Promise<AttemptRecord['outcome'] | null> {
    const d = await this.deliveries.claim(deliveryId, this.clock(), this.leaseMs);
    return d ? this.send(d) : null;
  }

  /** How long a claimed delivery is reserved for its attempt: after that a dead worker's attempt is taken over. */
  get leaseMs(): number {
    return this.options.timeoutMs + this.options.leaseGraceMs;
  }

  /**
   * The attempt of a delivery claimed for it (claim or WebhookDeliveryRepository.claimDue): sent,
   * and recorded before it resolves. After WEBHOOK_MAX_UNRECORDED_CLAIMS claims in a row whose
   * outcome was never recorded, it is not sent: a failed attempt saying so is recorded instead, so
   * an outcome that cannot be recorded does not make the delivery go round for ever.
   * The attempt is recorded at the merchant's time (`at`, a sandbox clock's step, or its
   * MerchantClock: real time outside sandbox mode) and its retry scheduled from it; the signature's
   * timestamp is always real time, as the receiver checks it against its own clock.
   */
  async send(d: ClaimedDelivery, at?: Date): Promise<AttemptRecord['outcome']> {
    const realNow = this.clock();
    const now = at ?? (await this.merchantClock.now(d.merchantId, realNow));
    const result =
      d.unrecordedClaims > WEBHOOK_MAX_UNRECORDED_CLAIMS
        ? unrecorded(d.unrecordedClaims - 1)
        : await this.post(d, realNow);
    // The retry counts from the attempt's end: on a clock held at a step, from the step itself.
    const ended = at ?? new Date(now.getTime() + (this.clock().getTime() - realNow.getTime()));
    return this.record(d, { now, ended, realNow }, result);
  }

  private post(d: ClaimedDelivery, now: Date): Promise<SendResult> {
    const timestamp = Math.floor(now.getTime() / 1000);
    return postWebhook(
      d.url,
      d.body,
      {
        'content-type': 'application/json',
        'user-agent': 'QRIS-Payments-Webhooks/1.0',
        'x-callback-event-id': d.eventId,
        'x-callback-event-type': d.eventType,
        'x-callback-timestamp': String(timestamp),
        'x-callback-attempt': String(d.attemptCount),
        'x-callback-signature': signatureHeader(d.signingSecrets, timestamp, d.body),
      },
      this.options,
    );
  }

  /** `now`: the attempt's time as recorded; `ended`: what its retry counts from; `realNow`: what a Retry-After date is read against. */
  private async record(
    d: ClaimedDelivery,
    { now, ended, realNow }: { now: Date; ended: Date; realNow: Date },
    result: SendResult,
  ): Promise<AttemptRecord['outcome']> {
    const kind = result.targetRefused ? 'final' : classifyResponse(result.statusCode);
    let outcome: AttemptRecord['outcome'] = kind === 'delivered' ? 'delivered' : 'failed';
    let nextAttemptAt: Date | null = null;
    if (kind === 'retryable') {
      const delay = nextAttemptDelayMs(d.cycleAttempts, this.random(), parseRetryAfter(result.retryAfter, realNow));
      if (delay === null) outcome = 'dead';
      else {
        outcome = 'retry';
        nextAttemptAt = new Date(ended.getTime() + delay);
      }
    }
    await this.deliveries.recordAttempt(d, {
      startedAt: now,
      latencyMs: result.latencyMs,
      statusCode: result.statusCode,
      error: result.error,
      responseBody: result.responseBody && responseExcerpt(result.responseBody, STORED_RESPONSE_CHARS),
      outcome,
      nextAttemptAt,
    });
    const log = {
      deliveryId: d.id,
      eventId: d.eventId,
      attempt: d.attemptCount,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      outcome,
      nextAttemptAt,
    };
    if (outcome === 'dead')
      this.logger.error({ ...log, error: result.error }, 'webhook DEAD-LETTERED after the last attempt');
    else if (outcome === 'failed')
      this.logger.warn({ ...log, error: result.error }, 'webhook refused by the receiver; not retried');
    else this.logger.info(log, outcome === 'delivered' ? 'webhook delivered' : 'webhook attempt failed; will retry');
    return outcome;
  }
}

/** The outcome recorded for a claim that is not sent: the claims before it were never recorded. */
function unrecorded(claims: number): SendResult {
  return {
    statusCode: null,
    error: `not sent: the outcome of the last ${claims} attempts could not be recorded`,
    responseBody: null,
    retryAfter: undefined,
    latencyMs: 0,
    targetRefused: false,
  };
}
