import type { PgChannel } from '../client/pg-listener';

export const WEBHOOK_DELIVERY_CHANNEL = 'webhook_delivery_inserted';

/**
 * For a PgListener: calls `onInsert` when a transaction that wrote a pay-in callback commits
 * (trigger + LISTEN/NOTIFY): those deliveries are written by the gateway and the expiry scan,
 * not by the workers' intake, so the dispatcher hears of them at once rather than at its
 * safety-net round. After a lost connection, once LISTENing again, it calls `onInsert` once.
 */
export function webhookDeliveryChannel(onInsert: () => void): PgChannel {
  return { channel: WEBHOOK_DELIVERY_CHANNEL, onNotify: () => onInsert(), onReconnect: onInsert };
}
