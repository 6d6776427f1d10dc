import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DISBURSEMENT_DECIDED_CHANNEL, PgListener } from '@pay/persistence';
import { type Logger, throttledWarn } from '@pay/platform';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, LOGGER } from '../gateway.tokens';

/** One transfer's interest in the ledger's decision. */
export interface DecisionSubscription {
  /** Resolves at the next decision notice for the transfer (or at once if one came since the last call), or after `ms`. */
  next(ms: number): Promise<void>;
  close(): void;
}

interface Waiter {
  notified: boolean;
  wake?: () => void;
}

/**
 * Wakes a transfer request the moment the ledger commits its decision (LISTEN on the channel
 * the ledger notifies), instead of polling the row: one connection per gateway process,
 * whatever the number of waiting requests. Callers re-read the row after each wake-up and keep a
 * slow timer as the safety net for a notice lost while the connection was being re-established.
 */
@Injectable()
export class DecisionWaiter implements OnModuleInit, OnModuleDestroy {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private readonly listener: PgListener;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, @Inject(LOGGER) logger: Logger) {
    this.listener = new PgListener(config.DATABASE_URL, DISBURSEMENT_DECIDED_CHANNEL, (id) => this.wake(id), {
      onError: throttledWarn(logger, 'decision listener lost its connection; reconnecting (transfers fall back to polling)'),
      // A decision committed while the connection was down was not heard: every waiter re-reads its row.
      onReconnect: () => {
        for (const id of this.waiting.keys()) this.wake(id);
      },
    });
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.listener.stop();
  }

  /** Subscribe before reading the row, so a decision committed in between is not missed. */
  subscribe(disbursementId: string): DecisionSubscription {
    const waiter: Waiter = { notified: false };
    let set = this.waiting.get(disbursementId);
    if (!set) this.waiting.set(disbursementId, (set = new Set()));
    set.add(waiter);
    return {
      next: (ms) => {
        if (waiter.notified) {
          waiter.notified = false;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          function done(): void {
            clearTimeout(timer);
            waiter.wake = undefined;
            waiter.notified = false;
            resolve();
          }
          waiter.wake = done;
        });
      },
      close: () => {
        waiter.wake?.();
        set.delete(waiter);
        if (set.size === 0) this.waiting.delete(disbursementId);
      },
    };
  }

  private wake(disbursementId: string): void {
    for (const waiter of this.waiting.get(disbursementId) ?? []) {
      waiter.notified = true;
      waiter.wake?.();
    }
  }
}
