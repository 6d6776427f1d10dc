import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleWebhookDeliveryView, WebhookResentView } from '@pay/contracts/dashboard';
import { type DeliveryStatus, AuditLogRepository, WebhookDeliveryRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { webhookDeliveryId, webhookResendReply } from '../ops/operator-actions';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { auditEntry } from '../../kernel/audit/audit.interceptor';
import { presentWebhookDelivery } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

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

/** Callback deliveries (disbursement and pay-in), and the ops API's resend. */
@ApiExcludeController()
@Controller('console/api/webhook-deliveries')
@UseGuards(OperatorSessionGuard)
export class ConsoleWebhooksController {
  constructor(
    @Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(AuditLogRepository) private readonly audit: AuditLogRepository,
  ) {}

  /** Newest first, without bodies. */
  @Get()
  async list(@Query() q: DeliveryListQuery): Promise<Reply<ConsoleWebhookDeliveryView[]>> {
    const recent = await this.deliveries.recent({ merchantId: q.merchantId, status: q.status, limit: q.limit });
    return new Reply(`${recent.length} delivery(ies)`, recent.map(presentWebhookDelivery));
  }

  @RequiresRecentAuth()
  @Post(':id/resend')
  @HttpCode(200)
  async resend(@Param('id') id: string, @Req() req: FastifyRequest): Promise<Reply<WebhookResentView>> {
    const deliveryId = webhookDeliveryId(id);
    // The audit row is written in the resend's transaction: both or neither.
    const resent = await this.audit.withChange(
      (tx) => this.deliveries.resend(deliveryId, new Date(), tx),
      (d) => (d ? auditEntry(req, 'webhook-delivery.resend', `webhook-delivery:${deliveryId}`) : null),
    );
    return webhookResendReply(resent);
  }
}
