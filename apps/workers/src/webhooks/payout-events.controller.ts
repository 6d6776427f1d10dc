import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type PayoutEventMessage, PayoutEventType, Topic } from '@pay/contracts';
import { runWithLogId } from '@pay/platform';
import type { WebhookDeliveryService } from './webhook-delivery.service';
import type { WebhookQueue } from './webhook.queue';

export const WEBHOOKS = Symbol('WEBHOOKS');

const TYPES = new Set<string>(Object.values(PayoutEventType));

/** Each final disbursement status becomes one webhook delivery, attempted at once. */
@Controller()
export class PayoutEventsController {
  constructor(@Inject(WEBHOOKS) private readonly webhooks: { service: WebhookDeliveryService; queue: WebhookQueue }) {}

  @EventPattern(Topic.PayoutEvents)
  async handle(@Payload() event: PayoutEventMessage): Promise<void> {
    if (!event || !TYPES.has(event.type) || typeof event.eventId !== 'string' || typeof event.notifyUrl !== 'string') {
      throw new Error(`invalid payout event: ${JSON.stringify(event).slice(0, 200)}`);
    }
    await runWithLogId(event.logId ?? event.eventId, async () => {
      const delivery = await this.webhooks.service.intake(event);
      if (delivery.status === 'pending') await this.webhooks.queue.enqueue(delivery.id, delivery.attemptCount);
    });
  }
}
