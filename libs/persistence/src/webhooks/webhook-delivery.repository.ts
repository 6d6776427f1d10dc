import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../client/prisma';
import type { WebhookAttempt, WebhookDelivery } from '../generated/prisma/client';

export type { WebhookAttempt, WebhookDelivery };
export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed' | 'dead';

export interface NewDelivery {
  eventId: string;
  eventType: string;
  merchantId: number;
  disbursementId: string | null;
  url: string;
  body: string;
  logId?: string;
}

export interface AttemptRecord {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  outcome: 'delivered' | 'retry' | 'failed' | 'dead';
  nextAttemptAt: Date | null;
}

/** Webhook deliveries and their attempts; the delivery row is the source of truth for retries. */
export class WebhookDeliveryRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** One delivery per event id: a redelivered event returns the existing one. */
  async create(d: NewDelivery, now: Date): Promise<WebhookDelivery> {
    await this.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
      VALUES (${randomUUID()}::uuid, ${d.eventId}, ${d.eventType}, ${d.merchantId}, ${d.disbursementId}::uuid, ${d.url}, ${d.body}, 'pending', ${now}, ${d.logId ?? null}, ${now}, ${now})
      ON CONFLICT (event_id) DO NOTHING`;
    return this.prisma.webhookDelivery.findUniqueOrThrow({ where: { eventId: d.eventId } });
  }

  /**
   * Takes the delivery for one attempt if it is due (pending and next_attempt_at reached) or
   * was left `delivering` by a worker that died (lease lapsed). Null when not claimable.
   */
  async claim(id: string, now: Date, leaseMs: number): Promise<WebhookDelivery | null> {
    const [row] = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE webhook_deliveries
         SET status = 'delivering', lease_until = ${new Date(now.getTime() + leaseMs)},
             attempt_count = attempt_count + 1, cycle_attempts = cycle_attempts + 1, updated_at = ${now}
       WHERE id = ${id}::uuid
         AND ((status = 'pending' AND next_attempt_at <= ${now}) OR (status = 'delivering' AND lease_until < ${now}))
      RETURNING id::text`;
    return row ? this.prisma.webhookDelivery.findUnique({ where: { id: row.id } }) : null;
  }

  /** Records the attempt and the delivery's new state in one transaction. */
  async recordAttempt(delivery: WebhookDelivery, attempt: AttemptRecord): Promise<void> {
    const status: DeliveryStatus = attempt.outcome === 'retry' ? 'pending' : attempt.outcome;
    await this.prisma.$transaction([
      this.prisma.webhookAttempt.create({ data: { deliveryId: delivery.id, attemptNo: delivery.attemptCount, ...attempt } }),
      this.prisma.webhookDelivery.update({
        where: { id: delivery.id },
        data: {
          status,
          nextAttemptAt: attempt.nextAttemptAt,
          leaseUntil: null,
          lastAttemptAt: attempt.startedAt,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          deliveredAt: attempt.outcome === 'delivered' ? new Date(attempt.startedAt.getTime() + attempt.latencyMs) : undefined,
          updatedAt: new Date(),
        },
      }),
    ]);
  }

  /** Ids of deliveries due now (or abandoned by a dead worker), oldest first. */
  async due(now: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM webhook_deliveries
       WHERE (status = 'pending' AND next_attempt_at <= ${now}) OR (status = 'delivering' AND lease_until < ${now})
       ORDER BY next_attempt_at NULLS FIRST LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  async attemptCounts(ids: string[]): Promise<{ id: string; attemptCount: number }[]> {
    return this.prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { id: true, attemptCount: true } });
  }

  /**
   * Sends a delivery again from the start of the retry schedule, keeping its event id and body.
   * Refused while an attempt is in progress.
   */
  async resend(id: string, now: Date): Promise<WebhookDelivery | null> {
    const [row] = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE webhook_deliveries
         SET status = 'pending', next_attempt_at = ${now}, cycle_attempts = 0, resend_count = resend_count + 1, lease_until = NULL, updated_at = ${now}
       WHERE id = ${id}::uuid AND status <> 'delivering'
      RETURNING id::text`;
    return row ? this.prisma.webhookDelivery.findUnique({ where: { id: row.id } }) : null;
  }

  /** Failed or dead-lettered deliveries of a merchant created at or after `since`. */
  async failedSince(merchantId: number, since: Date): Promise<WebhookDelivery[]> {
    return this.prisma.webhookDelivery.findMany({
      where: { merchantId, status: { in: ['failed', 'dead'] }, createdAt: { gte: since } },
      orderBy: { createdAt: 'asc' },
    });
  }

  async findWithAttempts(idOrEventId: string): Promise<(WebhookDelivery & { attempts: WebhookAttempt[] }) | null> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrEventId);
    return this.prisma.webhookDelivery.findFirst({
      where: isUuid ? { OR: [{ id: idOrEventId }, { eventId: idOrEventId }] } : { eventId: idOrEventId },
      include: { attempts: { orderBy: { attemptNo: 'asc' } } },
    });
  }

  /** The secrets to sign with now: the current one, and the previous one while its grace period lasts. */
  async signingSecrets(merchantId: number, now: Date): Promise<string[]> {
    const m = await this.prisma.merchant.findUniqueOrThrow({
      where: { id: merchantId },
      select: { webhookSecret: true, webhookSecretPrevious: true, webhookSecretPreviousExpiresAt: true },
    });
    const previousValid = m.webhookSecretPrevious && m.webhookSecretPreviousExpiresAt && m.webhookSecretPreviousExpiresAt > now;
    return previousValid ? [m.webhookSecret, m.webhookSecretPrevious as string] : [m.webhookSecret];
  }
}
