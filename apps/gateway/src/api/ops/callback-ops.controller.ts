import { Body, Controller, HttpCode, Param, ParseIntPipe, Put, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { MerchantAdmin } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { AdminTokenGuard } from '../../kernel/auth/admin/admin-token.guard';
import { PayinCallbackUrlDto } from '../../kernel/dto/payin-callback-url.dto';
import { PayinCallbackUrlSchema } from './ops.schemas';
import { Audited } from '../../kernel/audit/audit.interceptor';

/**
 * Operators' callback settings (also in the admin CLI: `merchant set-callback-url`): the
 * merchant's default pay-in callback URL, used for pay-ins generated without a notifyUrl.
 */
@ApiOps('Merchant settings')
@Controller('ops/merchants')
@UseGuards(AdminTokenGuard)
export class CallbackOpsController {
  constructor(private readonly admin: MerchantAdmin) {}

  @Put(':merchantId/payin-callback-url')
  @Audited('merchant.payin-callback-url', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setPayinCallbackUrl',
    summary: "Set or clear the merchant's default pay-in callback URL",
  })
  @ApiEnvelope(PayinCallbackUrlSchema, { message: ['Pay-in callback URL set', 'Pay-in callback URL cleared'] })
  async setPayinCallbackUrl(@Param('merchantId', ParseIntPipe) merchantId: number, @Body() dto: PayinCallbackUrlDto) {
    const m = await this.admin.setCallbackUrl(merchantId, dto.url);
    return new Reply(m.payinCallbackUrl ? 'Pay-in callback URL set' : 'Pay-in callback URL cleared', {
      merchantId: m.id,
      payinCallbackUrl: m.payinCallbackUrl,
    });
  }
}
