import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { signatureHeader } from '@pay/domain';
import { type MerchantDelivery, MerchantEventRepository, WebhookDeliveryRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { ApiEnvelope, ApiErrors } from '../../kernel/openapi/api-envelope.decorator';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { resendOwnDelivery } from '../../services/webhooks/resend-own-delivery';

export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 500;

export class EventLogQuery {
  @ApiPropertyOptional({
    type: String,
    example: '0',
    description: 'The last sequence you have processed (0 or absent: from the first event); the page starts after it',
  })
  @IsOptional()
  @Matches(/^(0|[1-9]\d{0,17})$/, { message: 'after must be a sequence: a whole number from 0' })
  after?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: EVENTS_MAX_LIMIT,
    default: EVENTS_DEFAULT_LIMIT,
    description: `Events per page, 1 to ${EVENTS_MAX_LIMIT}; more is refused, not reduced`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_MAX_LIMIT)
  limit?: number;
}

class EventLogItem {
  @ApiProperty({ example: '42', description: "The event's number in the merchant's log: 1, 2, 3... with no gap" })
  sequence!: string;
  @ApiProperty({ example: 'payin.succeeded:3f0c...', description: 'The x-callback-event-id of its callback' })
  eventId!: string;
  @ApiProperty({ example: 'payin.succeeded', description: 'The x-callback-event-type of its callback' })
  eventType!: string;
  @ApiProperty({ example: '2026-11-01T03:00:00.000Z' }) createdAt!: string;
  @ApiProperty({
    example: '{"status":"success","sequence":42}',
    description: "The callback's body exactly as delivered (a JSON document as a string; its last field is sequence)",
  })
  body!: string;
  @ApiProperty({
    example: 't=1762000000,v1=5d1c...',
    description: 'An x-callback-signature over body, made now with your webhook secret(s): verify it as a callback',
  })
  signature!: string;
}

class EventLogPage {
  @ApiProperty({ type: [EventLogItem] }) events!: EventLogItem[];
  @ApiProperty({ example: false, description: 'More events follow: ask again with after=nextAfter' }) hasMore!: boolean;
  @ApiProperty({
    example: '42',
    description: 'The sequence of the last event of the page (after itself when the page is empty)',
  })
  nextAfter!: string;
}

@ApiMerchant('Events')
@Controller('api/v1')
@UseGuards(MerchantAuthGuard)
export class EventLogController {
  constructor(
    private readonly events: MerchantEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  @Get('events')
  @RequiresScope('reports:read')
  @RateLimit('read')
  @ApiOperation({
    operationId: 'listEvents',
    summary: "The merchant's event log: every callback event, numbered 1, 2, 3... with no gap",
    description:
      'Oldest first, the events after `after` (the last sequence you processed). Follow nextAfter while hasMore; when hasMore is false you have every event up to nextAfter, whether or not its callback reached you. Each event is the callback body exactly as sent (with its sequence), and a signature made now over it: verify it as a callback. Events are logged even when no callback URL is set. A bad after or limit is a 400 VALIDATION_ERROR naming it.',
  })
  @ApiEnvelope(EventLogPage, { message: 'Query success' })
  @ApiErrors()
  async list(@Req() req: AuthenticatedRequest, @Query() q: EventLogQuery): Promise<Reply<EventLogPage>> {
    const after = BigInt(q.after ?? '0');
    const page = await this.events.after(req.merchant.id, after, q.limit ?? EVENTS_DEFAULT_LIMIT);
    const now = new Date();
    const secrets = page.events.length > 0 ? await this.deliveries.signingSecrets(req.merchant.id, now) : [];
    const t = Math.floor(now.getTime() / 1000);
    const last = page.events.at(-1);
    return new Reply('Query success', {
      events: page.events.map((e) => ({
        sequence: e.sequence.toString(),
        eventId: e.eventId,
        eventType: e.eventType,
        createdAt: e.createdAt.toISOString(),
        body: e.body,
        signature: signatureHeader(secrets, t, e.body),
      })),
      hasMore: page.hasMore,
      nextAfter: (last?.sequence ?? after).toString(),
    });
  }
}

const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'dead'] as const;
export const DELIVERIES_DEFAULT_LIMIT = 50;
export const DELIVERIES_MAX_LIMIT = 100;

export class DeliveryListQuery {
  @ApiPropertyOptional({
    enum: [...DELIVERY_STATUSES],
    description:
      'failed: given up (a final answer, or the retry schedule ran out: dead is listed with it); absent: every status',
  })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({ format: 'uuid', description: 'The id of the last delivery of the previous page' })
  @IsOptional()
  @IsUUID()
  before?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: DELIVERIES_MAX_LIMIT, default: DELIVERIES_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DELIVERIES_MAX_LIMIT)
  limit?: number;
}

class DeliveryItem {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'payin.3f0c....success' }) eventId!: string;
  @ApiProperty({ example: 'payin.succeeded' }) eventType!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '42',
    description: 'Its event in the log (null: sent before the log began)',
  })
  sequence!: string | null;
  @ApiProperty({ example: 'https://merchant.example/callbacks' }) url!: string;
  @ApiProperty({ enum: [...DELIVERY_STATUSES] }) status!: string;
  @ApiProperty({ example: 9 }) attemptCount!: number;
  @ApiProperty({ example: 0 }) resendCount!: number;
  @ApiProperty({ type: Number, nullable: true, example: 500 }) lastStatusCode!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

class DeliveryPage {
  @ApiProperty({ type: [DeliveryItem] }) deliveries!: DeliveryItem[];
  @ApiProperty({ example: false }) hasMore!: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function presentDelivery(d: MerchantDelivery): DeliveryItem {
  return {
    ...d,
    sequence: d.sequence?.toString() ?? null,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
  };
}

@ApiMerchant('Events')
@Controller('api/v1/webhooks/deliveries')
@UseGuards(MerchantAuthGuard)
export class MerchantDeliveriesController {
  constructor(
    private readonly events: MerchantEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  @Get()
  @RequiresScope('reports:read')
  @RateLimit('read')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "The merchant's callback deliveries, newest first (status=failed: those that gave up)",
    description:
      'Follow with before=<the last id> while hasMore. A bad status, before or limit is a 400 VALIDATION_ERROR naming it.',
  })
  @ApiEnvelope(DeliveryPage, { message: 'Query success' })
  @ApiErrors()
  async list(@Req() req: AuthenticatedRequest, @Query() q: DeliveryListQuery): Promise<Reply<DeliveryPage>> {
    const statuses = q.status === 'failed' ? ['failed', 'dead'] : q.status ? [q.status] : [...DELIVERY_STATUSES];
    const page = await this.events.deliveries(req.merchant.id, statuses, q.limit ?? DELIVERIES_DEFAULT_LIMIT, q.before);
    return new Reply('Query success', { deliveries: page.deliveries.map(presentDelivery), hasMore: page.hasMore });
  }

  @Post(':id/resend')
  @HttpCode(200)
  @RequiresScope('reports:read')
  @RateLimit('write')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOperation({
    operationId: 'resendWebhookDelivery',
    summary: 'Send a callback again: the same event id and body, from the start of the retry schedule',
    description:
      "Idempotent: a delivery already waiting to be sent is left as it is and answered. Another merchant's delivery or an unknown id is 404 NOT_FOUND; one being attempted at this moment 409 CONFLICT.",
  })
  @ApiEnvelope(DeliveryItem, { message: ['Callback queued for resend', 'Callback already queued'] })
  @ApiErrors(ErrorCode.NotFound, ErrorCode.Conflict)
  async resend(@Req() req: AuthenticatedRequest, @Param('id') id: string): Promise<Reply<DeliveryItem>> {
    const { message, delivery } = await resendOwnDelivery(this.events, this.deliveries, req.merchant.id, id);
    return new Reply(message, presentDelivery(delivery));
  }
}
