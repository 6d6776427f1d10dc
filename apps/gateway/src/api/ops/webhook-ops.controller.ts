import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty } from '@nestjs/swagger';
import { WebhookActions, webhookDeliveryId } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsPositive } from 'class-validator';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { auditAs } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { WebhookDeliverySchema, WebhookResendFailedSchema, WebhookResendSchema } from './ops.schemas';
import { Audited } from '../../kernel/audit/audit.interceptor';

class ResendFailedDto {
  @ApiProperty({ example: 7 })
  @IsInt()
  @IsPositive()
  merchantId!: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2026-11-22T00:00:00.000Z',
    description: 'Failed or dead deliveries created since this time',
  })
  @Type(() => Date)
  @IsDate({ message: 'since must be an ISO 8601 time' })
  since!: Date;
}

/**
 * Operators' webhook endpoints (also in the admin CLI): inspect a delivery, resend one or many.
 * Resending one is also the console's (/console/api/webhook-deliveries/:id/resend: an operator's
 * session, a recent password, the audit row in the resend's transaction).
 */
@ApiOps('Webhooks')
@Controller()
@UseGuards(OperatorGuard)
export class WebhookOpsController {
  constructor(private readonly deliveries: WebhookActions) {}

  @Get('ops/webhooks/deliveries/:key')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'A callback delivery and its attempts' })
  @ApiParam({ name: 'key', description: 'The delivery id or the event id' })
  @ApiEnvelope(WebhookDeliverySchema, { message: 'Delivery found' })
  async show(@Param('key') key: string) {
    const d = await this.deliveries.get(key);
    // Attempt ids are bigints: as text, as the dead letters' (JSON has no bigint).
    return new Reply('Delivery found', {
      ...d,
      attempts: d.attempts.map((attempt) => ({ ...attempt, id: String(attempt.id) })),
    });
  }

  @RequiresRecentAuth()
  @Post(['ops/webhooks/deliveries/:id/resend', 'console/api/webhook-deliveries/:id/resend'])
  @HttpCode(200)
  @ApiOperation({ operationId: 'resendWebhookDelivery', summary: 'Deliver a callback again (same event id)' })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiEnvelope(WebhookResendSchema, { message: 'Delivery queued for resend' })
  async resend(@Param('id') id: string, @Req() req: FastifyRequest) {
    const d = await this.deliveries.resent(webhookDeliveryId(id), auditAs(req));
    return new Reply('Delivery queued for resend', { id: d.id, eventId: d.eventId, status: d.status });
  }

  @Post('ops/webhooks/resend-failed')
  @Audited('webhook-delivery.resend-failed', ({ body }) => `merchant:${String(body.merchantId)}`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resendFailedWebhooks',
    summary: 'Deliver again every failed or dead callback of a merchant since a time',
  })
  @ApiEnvelope(WebhookResendFailedSchema, {
    message: '1 delivery(ies) queued for resend',
    messagePattern: '^\\d+ delivery\\(ies\\) queued for resend$',
  })
  async resendFailed(@Body() dto: ResendFailedDto) {
    const resent = await this.deliveries.resendFailed(dto.merchantId, dto.since);
    return new Reply(`${resent.length} delivery(ies) queued for resend`, { resent });
  }
}
