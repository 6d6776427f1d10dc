import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Reply } from '@pay/platform';
import type { RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ACQUIRER_SIGNATURE_HEADER, AcquirerService } from './acquirer.service';

/**
 * The QRIS acquirer's notification endpoint. Not a merchant endpoint: authenticated by the
 * HMAC over the raw body (shared secret ACQUIRER_SECRET), not by a token.
 */
@ApiExcludeController()
@Controller('internal/acquirer/qris')
export class AcquirerController {
  constructor(private readonly acquirer: AcquirerService) {}

  @Post('notifications')
  @HttpCode(200)
  async notify(@Req() req: RawBodyRequest<FastifyRequest>, @Headers(ACQUIRER_SIGNATURE_HEADER) signature: string | undefined) {
    const { payin, duplicate } = await this.acquirer.receive(req.rawBody?.toString('utf8') ?? '', signature);
    return new Reply(duplicate ? 'Notification already processed' : 'Notification accepted', { platformTrxId: payin.platformTrxId, status: payin.status });
  }
}
