import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { SNAP_ACQUIRER_SECURITY } from '../../kernel/openapi/ops-api.decorator';
import type { RawBodyRequest } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SnapNotificationService } from '../../services/payin/snap-notification.service';

const SNAP_ENVELOPE: SchemaObject = {
  type: 'object',
  required: ['responseCode', 'responseMessage'],
  additionalProperties: false,
  properties: {
    responseCode: { type: 'string', pattern: '^\\d{3}52\\d{2}$', example: '2005200' },
    responseMessage: { type: 'string', example: 'Successful' },
  },
};

/**
 * The QRIS acquirer's payment notification over SNAP (service 52, QRIS_ACQUIRER=snap), on the
 * internal port only. Authenticated by the acquirer's RSA signature (SNAP_ACQUIRER_PUBLIC_KEY_FILE),
 * answered in SNAP's envelope, not ours: that is what the acquirer reads (2005200, or why not).
 */
@ApiTags('Acquirer')
@ApiSecurity(SNAP_ACQUIRER_SECURITY)
@Controller('snap/v1.0/qr')
export class SnapNotifyController {
  constructor(private readonly notifications: SnapNotificationService) {}

  @Post('qr-mpm-notify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'snapQrMpmNotify',
    summary: 'A QRIS payment, as a SNAP acquirer reports it (service 52)',
    description:
      'SHA256withRSA by the acquirer over `POST:<path>:<hex sha256 of the body>:<X-TIMESTAMP>`, X-TIMESTAMP within ACQUIRER_CLOCK_SKEW_SECONDS. ' +
      "The same notification again (same originalReferenceNo) answers 2005200 and changes nothing. Answers in SNAP's envelope: " +
      "4015200 bad signature or timestamp, 4005201/4005202 a field, 4045201 unknown code, 4045213 amount not the code's, 4035200 paid after the code expired, 4045218 the code is final with another payment.",
  })
  @ApiHeader({
    name: 'X-TIMESTAMP',
    required: true,
    description: 'ISO 8601 with offset, e.g. 2026-11-28T10:20:05+07:00',
  })
  @ApiHeader({ name: 'X-PARTNER-ID', required: false })
  @ApiHeader({ name: 'X-EXTERNAL-ID', required: false })
  @ApiHeader({ name: 'CHANNEL-ID', required: false })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['originalReferenceNo', 'latestTransactionStatus'],
      properties: {
        originalReferenceNo: { type: 'string', maxLength: 64 },
        originalPartnerReferenceNo: { type: 'string', maxLength: 64, description: 'Our platformTrxId' },
        latestTransactionStatus: { type: 'string', enum: ['00', '06'] },
        transactionStatusDesc: { type: 'string' },
        amount: {
          type: 'object',
          properties: { value: { type: 'string', example: '25000.00' }, currency: { type: 'string', example: 'IDR' } },
        },
        additionalInfo: { type: 'object' },
      },
    },
  })
  @ApiResponse({ status: 200, description: 'Accepted (2005200), also for a duplicate', schema: SNAP_ENVELOPE })
  @ApiResponse({ status: 400, description: 'A field missing or malformed (40052xx)', schema: SNAP_ENVELOPE })
  @ApiResponse({ status: 401, description: 'Signature or X-TIMESTAMP refused (4015200)', schema: SNAP_ENVELOPE })
  @ApiResponse({ status: 403, description: 'Paid after the code expired (4035200)', schema: SNAP_ENVELOPE })
  @ApiResponse({
    status: 404,
    description: 'No such code, another amount, or final already (40452xx)',
    schema: SNAP_ENVELOPE,
  })
  async notify(@Req() req: RawBodyRequest<FastifyRequest>, @Res() reply: FastifyReply): Promise<void> {
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
    const answer = await this.notifications.receive({
      path: req.url.split('?')[0],
      headers,
      rawBody: req.rawBody ?? Buffer.alloc(0),
    });
    await reply.status(answer.http).header('content-type', 'application/json').send(answer.body);
  }
}
