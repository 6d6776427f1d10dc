import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { AuditLogRepository, type WebhookDelivery, WebhookDeliveryRepository } from '@pay/persistence';
import type { Pool } from 'pg';
import type { AuditAs } from '../audit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = (message: string) => new BackofficeError(BackofficeErrorCode.WebhookDeliveryNotFound, message);

/** A webhook delivery's id as the API's path gives it: anything that cannot be one is an unknown delivery. */
export function webhookDeliveryId(id: string): string {
  if (!UUID.test(id)) throw notFound('Webhook delivery not found');
  return id;
}

/** Callback deliveries as operators handle them (ops API, console, CLI `webhook ...`): inspect, resend. */
export class WebhookActions {
  private readonly deliveries: WebhookDeliveryRepository;
  private readonly audit: AuditLogRepository;

  constructor(pool: Pool) {
    this.deliveries = new WebhookDeliveryRepository(pool);
    this.audit = new AuditLogRepository(pool);
  }

  /** A delivery and its attempts, by its id or its event id. */
  find(idOrEventId: string) {
    return this.deliveries.findWithAttempts(idOrEventId);
  }

  async get(idOrEventId: string) {
    const d = await this.find(idOrEventId);
    if (!d) throw notFound('Webhook delivery not found');
    return d;
  }

  /**
   * Delivers again from the start of the retry schedule (same event id); null when the delivery
   * is unknown or an attempt is in progress. With `auditAs`, the audit row is written in the
   * resend's transaction (both or neither).
   */
  resend(deliveryId: string, auditAs?: AuditAs): Promise<WebhookDelivery | null> {
    if (!auditAs) return this.deliveries.resend(deliveryId, new Date());
    return this.audit.withChange(
      (tx) => this.deliveries.resend(deliveryId, new Date(), tx),
      (d) => (d ? auditAs('webhook-delivery.resend', `webhook-delivery:${deliveryId}`) : null),
    );
  }

  /** resend, or 404 when nothing was resent. */
  async resent(deliveryId: string, auditAs?: AuditAs): Promise<WebhookDelivery> {
    const d = await this.resend(deliveryId, auditAs);
    if (!d) throw notFound('Webhook delivery not found or an attempt is in progress');
    return d;
  }

  /** Resends every failed or dead delivery of the merchant created since `since`; the event ids resent. */
  async resendFailed(merchantId: number, since: Date): Promise<string[]> {
    const resent: string[] = [];
    for (const d of await this.deliveries.failedSince(merchantId, since))
      if (await this.deliveries.resend(d.id, new Date())) resent.push(d.eventId);
    return resent;
  }
}
