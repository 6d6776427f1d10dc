import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleWebhookDeliveryView } from '@pay/contracts/dashboard';
import { type DeliveryStatus, WebhookDeliveryRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentWebhookDelivery } from './console.presenter';

const STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'delivered', 'failed', 'dead'];

export class DeliveryListQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsPositive()
  merchantId?: number;

  @IsOptional()
  @IsIn(STATUSES)
  status?: DeliveryStatus;

  /** Default 100 */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** Callback deliveries (disbursement and pay-in); resending one is the operators' controller set's (WebhookOpsController). */
@ApiExcludeController()
@Controller('console/api/webhook-deliveries')
@UseGuards(OperatorSessionGuard)
export class ConsoleWebhooksController {
  constructor(@Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository) {}

  /** Newest first, without bodies. */
  @Get()
  async list(@Query() q: DeliveryListQuery): Promise<Reply<ConsoleWebhookDeliveryView[]>> {
    const recent = await this.deliveries.recent({ merchantId: q.merchantId, status: q.status, limit: q.limit });
    return new Reply(`${recent.length} delivery(ies)`, recent.map(presentWebhookDelivery));
  }
}
