import { Body, Controller, HttpCode, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleMerchantView } from '@pay/contracts/dashboard';
import { MerchantAdmin } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { MerchantId } from '../../kernel/http/path-params';
import { FeesDto, QrisDto, SettlementScheduleDto } from '../../kernel/dto/merchant-settings.dto';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { consoleMerchant } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

const merchantTarget = ({ params }: { params: Record<string, string> }) => `merchant:${params.merchantId}`;

/** A merchant's settings from the console: the ops API's MerchantAdmin methods, so the same rules and refusals. */
@ApiExcludeController()
@Controller('console/api/merchants/:merchantId')
@UseGuards(OperatorSessionGuard)
export class ConsoleMerchantSettingsController {
  constructor(private readonly admin: MerchantAdmin) {}

  @RequiresRecentAuth()
  @Put('fees')
  @HttpCode(200)
  @Audited('merchant.fees', merchantTarget, { merchantChanges: true })
  async setFees(@MerchantId() merchantId: number, @Body() dto: FeesDto): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Fees set', consoleMerchant(await this.admin.setFeesFromInput(merchantId, dto)));
  }

  @RequiresRecentAuth()
  @Put('qris-identity')
  @HttpCode(200)
  @Audited('merchant.qris-identity', merchantTarget, { merchantChanges: true })
  async setQris(@MerchantId() merchantId: number, @Body() dto: QrisDto): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('QRIS identity set', consoleMerchant(await this.admin.setQris(merchantId, dto)));
  }

  @RequiresRecentAuth()
  @Put('settlement-schedule')
  @HttpCode(200)
  @Audited('merchant.settlement-schedule', merchantTarget, { merchantChanges: true })
  async setSettlementSchedule(
    @MerchantId() merchantId: number,
    @Body() dto: SettlementScheduleDto,
  ): Promise<Reply<ConsoleMerchantView>> {
    return new Reply(
      'Settlement schedule set',
      consoleMerchant(await this.admin.setSettlementSchedule(merchantId, dto)),
    );
  }
}
