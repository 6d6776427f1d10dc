import type { PgChannel } from '../client/pg-listener';

export const OUTBOX_CHANNEL = 'outbox_inserted';

/**
 * For a PgListener: calls `onInsert(topic)` for each topic a committed transaction wrote outbox
 * rows of (trigger + LISTEN/NOTIFY, migration 20261128000000), so the relay publishes at once
 * rather than at its next poll. After a lost connection, once LISTENing again, it calls
 * `onInsert()` once, without a topic, for whatever was committed while it was away (the relay's
 * poll would find it too, a little later).
 */
export function outboxChannel(onInsert: (topic?: string) => void): PgChannel {
  return { channel: OUTBOX_CHANNEL, onNotify: (topic) => onInsert(topic || undefined), onReconnect: () => onInsert() };
}
