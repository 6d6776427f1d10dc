import type { ExpiryRound, PayinExpiryRepository } from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop } from '@pay/platform';

const EXPIRY_BATCH = 500;

/**
 * The scheduled expiry scan: every PAYIN_EXPIRY_SCAN_INTERVAL_MS, pending codes past their expiry
 * become `expired` with their payin.expired callback (PayinExpiryRepository), and the webhook
 * dispatcher is told at once. Safe with several workers running it (SKIP LOCKED); a full batch
 * runs the next round at once.
 */
export class PayinExpiryLoop {
  private readonly loop: WakeLoop;

  constructor(
    private readonly repository: PayinExpiryRepository,
    private readonly onCallbacks: () => void,
    logger: Logger,
    intervalMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.loop = new WakeLoop({
      round: () => this.round(),
      safetyIntervalMs: intervalMs,
      onError: roundFailureLog(logger, 'pay-in expiry scan failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One scan; also what tests call. */
  async scan(): Promise<ExpiryRound> {
    const result = await this.repository.expireDue(this.clock(), EXPIRY_BATCH);
    if (result.callbacks > 0) this.onCallbacks();
    return result;
  }

  private async round(): Promise<RoundResult> {
    const { expired } = await this.scan();
    return { more: expired === EXPIRY_BATCH };
  }
}
