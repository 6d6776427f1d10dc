import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { Reply } from '@pay/platform';
import type { RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiAcquirer, ApiAcquirerErrors } from '../../kernel/openapi/ops-api.decorator';
import { AcquirerNotificationResultSchema } from './acquirer.schemas';
import { ACQUIRER_SIGNATURE_HEADER, AcquirerService } from '../../services/payin/acquirer.service';
import { AcquirerNotificationDto } from './acquirer-notification.dto';

/**
 * The QRIS acquirer's notification endpoint. Not a merchant endpoint: authenticated by the
 * HMAC over the raw body (shared secret ACQUIRER_SECRET), not by a token.
 */
@ApiAcquirer('Acquirer')
@Controller('internal/acquirer/qris')
export class AcquirerController {
  constructor(private readonly acquirer: AcquirerService) {}

  @Post('notifications')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'acquirerNotification',
    summary: 'A QRIS payment, as the acquirer reports it (signed)',
    description:
      'Idempotent: the same notification again answers "Notification already processed". Every notification, accepted, duplicate or refused, is recorded.',
  })
  @ApiBody({ type: AcquirerNotificationDto })
  @ApiEnvelope(AcquirerNotificationResultSchema, {
    message: ['Notification accepted', 'Notification already processed'],
  })
  @ApiAcquirerErrors(
    ErrorCode.PayinNotFound,
    ErrorCode.AmountMismatch,
    ErrorCode.QrExpired,
    ErrorCode.PayinAlreadyFinal,
    ErrorCode.PaidAtInvalid,
    ErrorCode.AcquirerReferenceConflict,
  )
  async notify(
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers(ACQUIRER_SIGNATURE_HEADER) signature: string | undefined,
  ) {
    const { payin, duplicate } = await this.acquirer.receive({
      rawBody: req.rawBody?.toString('utf8') ?? '',
      signature,
    });
    return new Reply(duplicate ? 'Notification already processed' : 'Notification accepted', {
      platformTrxId: payin.platformTrxId,
      status: payin.status,
    });
  }
}
