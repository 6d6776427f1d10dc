import { PgListener } from '../client/pg-listener';

export const OUTBOX_CHANNEL = 'outbox_inserted';

/**
 * Calls `onInsert` whenever a transaction that wrote outbox rows commits (trigger +
 * LISTEN/NOTIFY), so the relay publishes at once rather than at its next poll; the relay's
 * poll covers any notification missed while the connection was down.
 */
export class OutboxListener extends PgListener {
  constructor(databaseUrl: string, onInsert: () => void, onError?: (err: unknown) => void) {
    super(databaseUrl, OUTBOX_CHANNEL, () => onInsert(), onError);
  }
}
