import { type Logger, roundFailureLog, WakeLoop } from '@pay/platform';
import type { PayoutProcessor } from './payout.processor';

/**
 * Runs the processor in rounds: when woken (the ledger's NOTIFY that a disbursement was
 * debited, or a reconnected LISTEN), when a recheck the rail asked for falls due, and otherwise
 * every `safetyIntervalMs` (the safety net for a lost notification and for leases that lapse
 * after a crash). Wakeups during a round coalesce into one more round, so a burst of debits is
 * claimed in batches.
 */
export class PayoutPoller {
  private readonly loop: WakeLoop;

  /** `afterFinals`: called after a round that settled disbursements (a batch may be complete). */
  constructor(processor: PayoutProcessor, logger: Logger, safetyIntervalMs: number, afterFinals?: () => void) {
    this.loop = new WakeLoop({
      round: async () => {
        const result = await processor.processDue();
        if (result.claimed > 0) afterFinals?.();
        return result;
      },
      safetyIntervalMs,
      onError: roundFailureLog(logger, 'payout processing failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Something may be due now: run a round (after the one in progress). */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
