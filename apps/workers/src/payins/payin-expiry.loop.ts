import type { ExpiryRound, PayinExpiryRepository } from '@pay/persistence';
import { type Logger, type RoundResult, roundFailureLog, WakeLoop } from '@pay/platform';
import type { PayinAcquirerCheck } from './payin-acquirer.check';

const EXPIRY_BATCH = 500;

/**
 * The scheduled expiry scan: every PAYIN_EXPIRY_SCAN_INTERVAL_MS, pending codes past their expiry
 * become `expired` with their payin.expired callback (PayinExpiryRepository), and the webhook
 * dispatcher is told at once. Safe with several workers running it (SKIP LOCKED); a full batch
 * runs the next round at once. With an acquirer over SNAP (QRIS_ACQUIRER=snap) each code is first
 * asked about (PayinAcquirerCheck): a paid one is applied, not expired; one it did not answer for waits.
 */
export class PayinExpiryLoop {
  private readonly loop: WakeLoop;

  constructor(
    private readonly repository: PayinExpiryRepository,
    private readonly onCallbacks: () => void,
    logger: Logger,
    intervalMs: number,
    private readonly clock: () => Date = () => new Date(),
    private readonly acquirerCheck: PayinAcquirerCheck | null = null,
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
  async scan(): Promise<ExpiryRound & { resolved: number; held: number }> {
    const now = this.clock();
    const checked = this.acquirerCheck ? await this.acquirerCheck.round(now, EXPIRY_BATCH) : { resolved: 0, held: [] };
    // A code the acquirer resolved wrote its callback in the same transaction.
    if (checked.resolved > 0) this.onCallbacks();
    const result = await this.repository.expireDue(now, EXPIRY_BATCH, checked.held);
    if (result.callbacks > 0) this.onCallbacks();
    return { ...result, resolved: checked.resolved, held: checked.held.length };
  }

  private async round(): Promise<RoundResult> {
    const { expired } = await this.scan();
    return { more: expired === EXPIRY_BATCH };
  }
}
