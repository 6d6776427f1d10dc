import type { WebhookDeliveryRepository } from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop } from '@pay/platform';
import type { WebhookDeliveryService } from './webhook-delivery.service';

export interface WebhookDispatcherOptions {
  /** Attempts in flight at most, per workers process */
  concurrency: number;
  /** Attempts of one merchant in flight at most, across every workers process (counted by the claims) */
  perMerchant: number;
  /**
   * The safety net: the longest it goes without asking the database what is due (a lost
   * notification, an attempt abandoned by a worker that died). Scheduled retries are claimed when
   * they fall due, new deliveries and resends when their transaction commits (NOTIFY).
   */
  safetyIntervalMs: number;
}

/**
 * Runs webhook attempts straight from the database, where every delivery already lives with its
 * schedule (decision 0024): a round claims, in one statement, as many due deliveries as there
 * are free attempt slots (leased, so a worker that dies lets them go at the lease's end, and two
 * dispatchers never take the same one), shared fairly between merchants (each capped at
 * `perMerchant` in flight across all processes, the slots going round the merchants), and starts
 * their attempts; each attempt records its
 * outcome and next attempt itself. Rounds run when a transaction that wrote or resent a
 * delivery commits (`wake`), when an attempt frees a slot while deliveries wait or schedules a
 * retry, when the earliest scheduled retry falls due, and otherwise every safety interval.
 */
export class WebhookDispatcher {
  private readonly loop: WakeLoop;
  private readonly inFlight = new Set<Promise<void>>();
  /** The last round left due deliveries (no free slot, or their merchants at their caps): a freed slot asks again at once. */
  private backlog = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly service: WebhookDeliveryService,
    private readonly logger: Logger,
    private readonly options: WebhookDispatcherOptions,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.loop = new WakeLoop({
      round: () => this.dispatchDue(),
      safetyIntervalMs: options.safetyIntervalMs,
      onError: roundFailureLog(logger, 'webhook dispatch failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Something may be due now (a delivery written or resent): claim it as soon as a round can. */
  wake(): void {
    this.loop.wake();
  }

  /** Attempts in flight now. */
  get active(): number {
    return this.inFlight.size;
  }

  /** Claims what is due, up to the free slots, and starts those attempts; says when the next scheduled retry is due. */
  async dispatchDue(): Promise<RoundResult & { dispatched: number }> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) {
      this.backlog = true;
      return { dispatched: 0 };
    }
    const { claimed, nextDueAt, waiting } = await this.deliveries.claimDue(
      this.clock(),
      free,
      this.service.leaseMs,
      this.options.perMerchant,
    );
    this.backlog = waiting;
    for (const delivery of claimed) {
      const tracked: Promise<void> = this.service.send(delivery).then(
        (outcome) => this.settled(tracked, outcome === 'retry'),
        // Not recorded (the database went away mid-attempt): the lease lapses and a later round takes it again.
        (err: unknown) => {
          this.logger.warn(
            { deliveryId: delivery.id, err: err instanceof Error ? err.message : String(err) },
            'webhook attempt could not be recorded; retried when its lease lapses',
          );
          this.settled(tracked, false);
        },
      );
      this.inFlight.add(tracked);
    }
    return { dispatched: claimed.length, nextDueAt };
  }

  /**
   * An attempt is over: its slot is free before the loop is woken, so the round it wakes can use
   * it (woken first, a round of attempts recorded together found every slot still taken, and
   * nothing woke it again). Woken when deliveries may be waiting for a slot, or when the attempt
   * scheduled a retry (the round learns when it falls due).
   */
  private settled(attempt: Promise<void>, scheduledRetry: boolean): void {
    this.inFlight.delete(attempt);
    if (scheduledRetry || this.backlog) this.loop.wake();
  }

  /** Stops claiming and lets the attempts in flight finish (each bounded by its timeout). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }
}
