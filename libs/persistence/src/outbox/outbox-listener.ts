import { PgListener } from '../client/pg-listener';

export const OUTBOX_CHANNEL = 'outbox_inserted';

/**
 * Calls `onInsert` whenever a transaction that wrote outbox rows commits (trigger +
 * LISTEN/NOTIFY), so the relay publishes at once rather than at its next poll. After a lost
 * connection it LISTENs again by itself and calls `onInsert` once, for whatever was committed
 * while it was away (the relay's poll would find it too, a little later).
 */
export class OutboxListener extends PgListener {
  constructor(databaseUrl: string, onInsert: () => void, onError?: (err: unknown) => void) {
    super(databaseUrl, OUTBOX_CHANNEL, () => onInsert(), { onError, onReconnect: onInsert });
  }
}
