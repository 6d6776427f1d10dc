import { type Logger, roundFailureLog } from '@pay/platform';
import type { PayoutProcessor } from './payout.processor';

/**
 * Runs the processor on a fixed interval and on demand (`kick`, when the ledger announces a
 * debit). The interval is the safety net: whatever an event missed, the next tick finds.
 */
export class PayoutPoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly failed: (err: unknown) => void;

  constructor(
    private readonly processor: PayoutProcessor,
    logger: Logger,
    private readonly intervalMs: number,
  ) {
    this.failed = roundFailureLog(logger, 'payout processing failed');
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.run(() => this.processor.processDue()).finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    tick();
  }

  /** Advance one disbursement now (it is claimed only if due and not leased elsewhere). */
  kick(disbursementId: string): Promise<void> {
    return this.run(() => this.processor.processDue(disbursementId));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async run(fn: () => Promise<number>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.failed(err);
    }
  }
}
