import { DISBURSEMENT_DECIDED_CHANNEL, type PgListener } from '@pay/persistence';

/** The statuses the ledger moves a transfer to out of `funding`. */
export type DecidedStatus = 'pending' | 'refused';

/** One transfer's interest in the ledger's decision. */
export interface DecisionSubscription {
  /**
   * Resolves at the next decision notice for the transfer (or at once if one came since the last
   * call), or after `ms`: with the decided status when the notice carried it, else with null
   * (then read the row).
   */
  next(ms: number): Promise<DecidedStatus | null>;
  close(): void;
}

interface Waiter {
  notified: boolean;
  status: DecidedStatus | null;
  wake?: () => void;
}

/**
 * The ledger's notice: the disbursement id, optionally followed by `:` and the status it was
 * moved to (`<uuid>:pending`), which spares the waiting request a read of the row.
 */
export function parseDecisionNotice(payload: string): { id: string; status: DecidedStatus | null } {
  const sep = payload.indexOf(':');
  if (sep < 0) return { id: payload, status: null };
  const status = payload.slice(sep + 1);
  return { id: payload.slice(0, sep), status: status === 'pending' || status === 'refused' ? status : null };
}

/**
 * Wakes a transfer request the moment the ledger commits its decision (LISTEN on the channel
 * the ledger notifies, on the gateway's one listening connection), instead of polling the row,
 * whatever the number of waiting requests. Callers take the status from the notice when it
 * carries one, re-read the row after any other wake-up, and keep a slow timer as the safety net
 * for a notice lost while the connection was being re-established. The listener is started and
 * stopped by its owner (gateway.app.ts).
 */
export class DecisionWaiter {
  private readonly waiting = new Map<string, Set<Waiter>>();

  constructor(notices: PgListener) {
    notices.listen({
      channel: DISBURSEMENT_DECIDED_CHANNEL,
      onNotify: (payload) => this.wake(parseDecisionNotice(payload)),
      // A decision committed while the connection was down was not heard: every waiter re-reads its row.
      onReconnect: () => {
        for (const id of this.waiting.keys()) this.wake({ id, status: null });
      },
    });
  }

  /** Subscribe before reading the row, so a decision committed in between is not missed. */
  subscribe(disbursementId: string): DecisionSubscription {
    const waiter: Waiter = { notified: false, status: null };
    let set = this.waiting.get(disbursementId);
    if (!set) this.waiting.set(disbursementId, (set = new Set()));
    set.add(waiter);
    return {
      next: (ms) => {
        if (waiter.notified) return Promise.resolve(take(waiter));
        return new Promise<DecidedStatus | null>((resolve) => {
          const timer = setTimeout(done, ms);
          function done(): void {
            clearTimeout(timer);
            waiter.wake = undefined;
            resolve(take(waiter));
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

  private wake(notice: { id: string; status: DecidedStatus | null }): void {
    for (const waiter of this.waiting.get(notice.id) ?? []) {
      waiter.notified = true;
      // A notice without a status (a reconnect, today's ledger payload) never hides one heard before.
      waiter.status = notice.status ?? waiter.status;
      waiter.wake?.();
    }
  }
}

/** What a wake-up brought: the decided status if a notice carried one; cleared for the next wait. */
function take(waiter: Waiter): DecidedStatus | null {
  const status = waiter.status;
  waiter.notified = false;
  waiter.status = null;
  return status;
}
