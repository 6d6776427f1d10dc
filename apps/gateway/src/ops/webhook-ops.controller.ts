import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { WebhookDeliveryRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsPositive } from 'class-validator';
import { AdminTokenGuard } from './admin-auth';

class ResendFailedDto {
  @IsInt()
  @IsPositive()
  merchantId!: number;

  @Type(() => Date)
  @IsDate({ message: 'since must be an ISO 8601 time' })
  since!: Date;
}

/** Operators' webhook endpoints (also in the admin CLI): inspect a delivery, resend one or many. */
@ApiExcludeController()
@Controller('ops/webhooks')
@UseGuards(AdminTokenGuard)
export class WebhookOpsController {
  constructor(@Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository) {}

  @Get('deliveries/:key')
  async show(@Param('key') key: string) {
    const d = await this.deliveries.findWithAttempts(key);
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found');
    return new Reply('Delivery found', d);
  }

  @Post('deliveries/:id/resend')
  @HttpCode(200)
  async resend(@Param('id') id: string) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found');
    const d = await this.deliveries.resend(id, new Date());
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found or an attempt is in progress');
    return new Reply('Delivery queued for resend', { id: d.id, eventId: d.eventId, status: d.status });
  }

  @Post('resend-failed')
  @HttpCode(200)
  async resendFailed(@Body() dto: ResendFailedDto) {
    const failed = await this.deliveries.failedSince(dto.merchantId, dto.since);
    const resent: string[] = [];
    for (const d of failed) if (await this.deliveries.resend(d.id, new Date())) resent.push(d.eventId);
    return new Reply(`${resent.length} delivery(ies) queued for resend`, { resent });
  }
}
