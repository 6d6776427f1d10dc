import { PgListener } from '../client/pg-listener';

export const WEBHOOK_DELIVERY_CHANNEL = 'webhook_delivery_inserted';

/**
 * Calls `onInsert` when a transaction that wrote a pay-in callback commits (trigger +
 * LISTEN/NOTIFY): those deliveries are written by the gateway and the expiry scan, not by the
 * workers' intake, so the dispatcher hears of them at once rather than at its safety-net round.
 * After a lost connection it LISTENs again and calls `onInsert` once.
 */
export class WebhookDeliveryListener extends PgListener {
  constructor(databaseUrl: string, onInsert: () => void, onError?: (err: unknown) => void) {
    super(databaseUrl, WEBHOOK_DELIVERY_CHANNEL, () => onInsert(), { onError, onReconnect: onInsert });
  }
}
