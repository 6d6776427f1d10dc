import { Gauge, type Registry } from 'prom-client';
import type { WarnLogger } from '../logging/throttled-warn';
import { scrapeRead } from './scrape-read';

/** Disbursements debited and not yet final (PayoutRepository.pendingSummary). */
export interface PendingPayouts {
  count: number;
  /** Since the oldest one's transfer was accepted; 0 when none is pending. */
  oldestAgeSeconds: number;
}

/**
 * `disbursements_pending` and `disbursements_pending_oldest_age_seconds`: transfers whose money
 * has left the merchant's balance and that the bank has not settled yet, read at scrape time
 * (at most once per `cacheMs`) from the partial index the payout loop claims from. The sandbox
 * rail settles in seconds; an oldest age of many minutes is a payout loop or a bank rail that is
 * stuck, with merchants' money held meanwhile (alert PaymentsPayoutsStuck).
 */
export function pendingPayoutsMetric(
  registry: Registry,
  source: { pendingSummary(): Promise<PendingPayouts> },
  options: { logger: WarnLogger; cacheMs?: number },
): void {
  const update = scrapeRead(
    () => source.pendingSummary(),
    (pending) => {
      count.set(pending.count);
      oldest.set(pending.oldestAgeSeconds);
    },
    {
      logger: options.logger,
      warning: 'payout metrics: could not read the pending disbursements; keeping the last values',
      cacheMs: options.cacheMs,
    },
  );
  const count = new Gauge({
    name: 'disbursements_pending',
    help: 'Disbursements debited from their merchant and not yet settled by the bank (status pending)',
    registers: [registry],
    collect: update,
  });
  const oldest = new Gauge({
    name: 'disbursements_pending_oldest_age_seconds',
    help: 'Age in seconds of the oldest pending disbursement, since its transfer was accepted (0 when none is pending)',
    registers: [registry],
    collect: update,
  });
}
