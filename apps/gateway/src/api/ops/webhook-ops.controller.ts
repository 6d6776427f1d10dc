import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { WebhookDeliveryRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsPositive } from 'class-validator';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { AdminTokenGuard } from '../../kernel/auth/admin/admin-token.guard';
import { WebhookDeliverySchema, WebhookResendFailedSchema, WebhookResendSchema } from './ops.schemas';
import { webhookDeliveryId, webhookResendReply } from './operator-actions';

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

/** Operators' webhook endpoints (also in the admin CLI): inspect a delivery, resend one or many. */
@ApiOps('Webhooks')
@Controller('ops/webhooks')
@UseGuards(AdminTokenGuard)
export class WebhookOpsController {
  constructor(@Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository) {}

  @Get('deliveries/:key')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'A callback delivery and its attempts' })
  @ApiParam({ name: 'key', description: 'The delivery id or the event id' })
  @ApiEnvelope(WebhookDeliverySchema, { message: 'Delivery found' })
  async show(@Param('key') key: string) {
    const d = await this.deliveries.findWithAttempts(key);
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found');
    // Attempt ids are bigints: as text, as the dead letters' (JSON has no bigint).
    return new Reply('Delivery found', {
      ...d,
      attempts: d.attempts.map((attempt) => ({ ...attempt, id: String(attempt.id) })),
    });
  }

  @Post('deliveries/:id/resend')
  @HttpCode(200)
  @ApiOperation({ operationId: 'resendWebhookDelivery', summary: 'Deliver a callback again (same event id)' })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiEnvelope(WebhookResendSchema, { message: 'Delivery queued for resend' })
  async resend(@Param('id') id: string) {
    return webhookResendReply(await this.deliveries.resend(webhookDeliveryId(id), new Date()));
  }

  @Post('resend-failed')
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
    const failed = await this.deliveries.failedSince(dto.merchantId, dto.since);
    const resent: string[] = [];
    for (const d of failed) if (await this.deliveries.resend(d.id, new Date())) resent.push(d.eventId);
    return new Reply(`${resent.length} delivery(ies) queued for resend`, { resent });
  }
}
