import { type DynamicModule, Module } from '@nestjs/common';
import { PayoutEventsController, WEBHOOKS } from './webhooks/payout-events.controller';
import type { WebhookDeliveryService } from './webhooks/webhook-delivery.service';
import type { WebhookQueue } from './webhooks/webhook.queue';

@Module({})
export class WorkersModule {
  static register(deps: { service: WebhookDeliveryService; queue: WebhookQueue }): DynamicModule {
    return { module: WorkersModule, controllers: [PayoutEventsController], providers: [{ provide: WEBHOOKS, useValue: deps }] };
  }
}
