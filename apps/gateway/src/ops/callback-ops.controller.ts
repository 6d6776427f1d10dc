import { Body, Controller, HttpCode, Inject, Param, ParseIntPipe, Put, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { MerchantAdmin, MerchantNotFoundError, type PrismaClient } from '@pay/persistence';
import { ApiError, IsNotifyUrl, Reply } from '@pay/platform';
import { ValidateIf } from 'class-validator';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, PRISMA } from '../gateway.tokens';
import { assertNotifyUrlAllowed } from '../http/notify-url.check';
import { ApiEnvelope } from '../openapi/api-envelope.decorator';
import { ApiOps } from '../openapi/ops-api.decorator';
import { AdminTokenGuard } from './admin-auth';
import { PayinCallbackUrlSchema } from './ops.schemas';

class PayinCallbackUrlDto {
  /** The default pay-in callback URL; null clears it */
  @ApiProperty({ type: String, nullable: true, format: 'uri', example: 'https://merchant.example/callbacks/payin', description: 'Absolute http(s) URL (not a private address); null clears it' })
  @ValidateIf((o: PayinCallbackUrlDto) => o.url !== null)
  @IsNotifyUrl('url')
  url!: string | null;
}

/**
 * Operators' callback settings (also in the admin CLI: `merchant set-callback-url`): the
 * merchant's default pay-in callback URL, used for pay-ins generated without a notifyUrl.
 */
@ApiOps('Merchant settings')
@Controller('ops/merchants')
@UseGuards(AdminTokenGuard)
export class CallbackOpsController {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Put(':merchantId/payin-callback-url')
  @HttpCode(200)
  @ApiOperation({ operationId: 'setPayinCallbackUrl', summary: "Set or clear the merchant's default pay-in callback URL" })
  @ApiEnvelope(PayinCallbackUrlSchema, { message: ['Pay-in callback URL set', 'Pay-in callback URL cleared'] })
  async setPayinCallbackUrl(@Param('merchantId', ParseIntPipe) merchantId: number, @Body() dto: PayinCallbackUrlDto) {
    if (dto.url !== null) await assertNotifyUrlAllowed(dto.url, this.config.WEBHOOK_ALLOW_LOOPBACK, 'url');
    try {
      const m = await new MerchantAdmin(this.prisma).setPayinCallbackUrl(merchantId, dto.url);
      return new Reply(m.payinCallbackUrl ? 'Pay-in callback URL set' : 'Pay-in callback URL cleared', { merchantId: m.id, payinCallbackUrl: m.payinCallbackUrl });
    } catch (err) {
      if (err instanceof MerchantNotFoundError) throw new ApiError(ErrorCode.NotFound, err.message);
      throw err;
    }
  }
}
