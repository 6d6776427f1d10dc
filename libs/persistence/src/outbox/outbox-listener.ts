import { PgListener } from '../client/pg-listener';

export const OUTBOX_CHANNEL = 'outbox_inserted';

/**
 * Calls `onInsert(topic)` for each topic a committed transaction wrote outbox rows of (trigger +
 * LISTEN/NOTIFY, migration 20261128000000), so the relay publishes at once rather than at its
 * next poll. After a lost connection it LISTENs again by itself and calls `onInsert()` once,
 * without a topic, for whatever was committed while it was away (the relay's poll would find it
 * too, a little later).
 */
export class OutboxListener extends PgListener {
  constructor(databaseUrl: string, onInsert: (topic?: string) => void, onError?: (err: unknown) => void) {
    super(databaseUrl, OUTBOX_CHANNEL, (topic) => onInsert(topic || undefined), { onError, onReconnect: () => onInsert() });
  }
}
