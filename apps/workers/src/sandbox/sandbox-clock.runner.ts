import type {
  PayinExpiryRepository,
  SandboxClock,
  SandboxClockRepository,
  SettlementPlanner,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop } from '@pay/platform';
import type { WebhookDeliveryService } from '../webhooks/webhook-delivery.service';

/** A walking worker's hold on a clock, renewed at every step; a dead worker's walk is taken over after it. */
const LEASE_MS = 60_000;
const EXPIRY_BATCH = 500;
/** How long a step waits for the ledger (a paid pay-in recorded, a settlement credited) or an attempt in flight. */
const SETTLE_WAIT_MS = 15_000;
const POLL_MS = 50;

export interface SandboxClockOptions {
  /** The longest it goes without looking for an advance to walk (an advance's NOTIFY wakes it at once) */
  safetyIntervalMs: number;
  /** Callback attempts of one merchant at once during a walk */
  concurrency: number;
}

/**
 * Sandbox clocks, the workers' side (SANDBOX_MODE only; docs/merchant-api.md#sandbox-clock). An
 * advance asked for through the gateway is walked here: from the clock's time to its target, the
 * clock steps to each instant something of that merchant falls due (a pending code's expiry, its
 * oldest unsettled pay-in's settlement at T+n, Jakarta, a callback's next attempt) and fires it
 * there through the production paths, with the clock's time as their `now`: the expiry scan's
 * expireDue, the settlement planner's planDue (the ledger credits it as any settlement), the
 * webhook delivery service's attempt (recorded at the step, its retry scheduled from it). Only
 * that merchant's objects move; real time and other merchants are untouched.
 * Between advances, a clock ahead of real time holds: callbacks written meanwhile (due at the
 * clock's time, not yet in real time) are attempted here at once.
 */
export class SandboxClockRunner {
  readonly loop: WakeLoop;

  constructor(
    private readonly clocks: SandboxClockRepository,
    private readonly planner: SettlementPlanner,
    private readonly expiry: PayinExpiryRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly service: WebhookDeliveryService,
    private readonly logger: Logger,
    private readonly options: SandboxClockOptions,
    private readonly realClock: () => Date = () => new Date(),
  ) {
    this.loop = new WakeLoop({
      round: () => this.round(),
      safetyIntervalMs: options.safetyIntervalMs,
      onError: roundFailureLog(logger, 'sandbox clock round failed'),
    });
  }

  /** One advance walked if one waits, else the callbacks due on clocks ahead of real time; also what tests call. */
  async round(): Promise<RoundResult> {
    const clock = await this.clocks.takeAdvancing(this.realClock(), LEASE_MS);
    if (clock) {
      await this.walk(clock);
      return { more: true };
    }
    for (const ahead of await this.clocks.ahead(this.realClock())) await this.attempt(ahead.merchantId, ahead.frozenAt);
    return {};
  }

  private async walk(clock: SandboxClock): Promise<void> {
    const merchantId = clock.merchantId;
    const target = clock.advancingTo as Date;
    const started = this.realClock();
    let at = clock.frozenAt;
    let steps = 0;
    for (;;) {
      await this.clocks.step(merchantId, at, this.realClock(), LEASE_MS);
      await this.untilQuiet(merchantId);
      // What fell due at `at` may make more due at `at` (a settlement's callback): fire again before moving on.
      if ((await this.fire(merchantId, at)) > 0) continue;
      const next = await this.clocks.nextDue(merchantId, at);
      if (!next || next.at > target) break;
      at = next.at;
      steps++;
    }
    await this.clocks.finish(merchantId, this.realClock());
    this.logger.info(
      { merchantId, to: target, steps, ms: this.realClock().getTime() - started.getTime() },
      'sandbox clock advanced',
    );
  }

  /** Everything of the merchant due at `at`, fired; how many things moved. */
  private async fire(merchantId: number, at: Date): Promise<number> {
    const { expired } = await this.expiry.expireDue(at, EXPIRY_BATCH, [], merchantId);
    const requested = (await this.planner.planDue(at, merchantId)).filter((p) => p.requested);
    for (const p of requested) {
      const credited = await this.waitFor(() => this.planner.credited(p.settlementId).then(Boolean));
      if (!credited)
        this.logger.warn({ merchantId, settlementId: p.settlementId }, 'sandbox clock: settlement not credited yet');
    }
    return expired + requested.length + (await this.attempt(merchantId, at));
  }

  /** The merchant's callbacks due by `at`, attempted at `at` (a few at once); how many were attempted. */
  private async attempt(merchantId: number, at: Date): Promise<number> {
    const ids = await this.clocks.dueDeliveries(merchantId, at);
    let attempted = 0;
    for (let i = 0; i < ids.length; i += this.options.concurrency) {
      const sent = await Promise.all(
        ids.slice(i, i + this.options.concurrency).map(async (id) => {
          const claimed = await this.deliveries.claimDueBy(id, at, this.realClock(), this.service.leaseMs);
          if (!claimed) return 0; // another worker's now
          await this.service.send(claimed, at);
          return 1;
        }),
      );
      attempted += sent.reduce<number>((a, b) => a + b, 0);
    }
    return attempted;
  }

  /** Waits (bounded) until the merchant has no attempt in flight and no paid pay-in the ledger has still to record. */
  private async untilQuiet(merchantId: number): Promise<void> {
    if (!(await this.waitFor(async () => !(await this.clocks.busy(merchantId)))))
      this.logger.warn({ merchantId }, 'sandbox clock: moving on with work still in flight');
  }

  private async waitFor(done: () => Promise<boolean>): Promise<boolean> {
    const deadline = Date.now() + SETTLE_WAIT_MS;
    for (;;) {
      if (await done()) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
