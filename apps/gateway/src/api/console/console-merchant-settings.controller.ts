import { Body, Controller, HttpCode, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleMerchantView } from '@pay/contracts/dashboard';
import { MerchantAdmin } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { MerchantId } from '../../kernel/http/path-params';
import {
  AllowlistDto,
  FeesDto,
  QrisDto,
  RateLimitsDto,
  SettlementScheduleDto,
} from '../../kernel/dto/merchant-settings.dto';
import { PayinCallbackUrlDto } from '../../kernel/dto/payin-callback-url.dto';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { consoleMerchant } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

const merchantTarget = ({ params }: { params: Record<string, string> }) => `merchant:${params.merchantId}`;

/**
 * A merchant's settings from the console: the ops API's MerchantAdmin methods, so the same rules
 * and refusals, each answered with the whole merchant as the console shows it. Audited as the ops
 * API's routes are (same action, old -> new). Its credentials (tokens, webhook secret) and its
 * settlement run are the ops API's own handlers on their /console/api paths.
 */
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

  /** Replaces the pay-in IP allowlist and sets its enforcement in one update. */
  @RequiresRecentAuth()
  @Put('allowlist')
  @HttpCode(200)
  @Audited('merchant.allowlist', merchantTarget, { merchantChanges: true })
  async setAllowlist(@MerchantId() merchantId: number, @Body() dto: AllowlistDto): Promise<Reply<ConsoleMerchantView>> {
    const m = await this.admin.setAllowlist(merchantId, dto.entries, dto.enabled);
    return new Reply(
      m.ipAllowlistEnabled && m.ipAllowlist.length === 0
        ? 'Allowlist set; it is enabled and empty, so every request of this merchant is refused'
        : 'Allowlist set',
      consoleMerchant(m),
    );
  }

  @RequiresRecentAuth()
  @Put('payin-callback-url')
  @HttpCode(200)
  @Audited('merchant.payin-callback-url', merchantTarget, { merchantChanges: true })
  async setPayinCallbackUrl(
    @MerchantId() merchantId: number,
    @Body() dto: PayinCallbackUrlDto,
  ): Promise<Reply<ConsoleMerchantView>> {
    const m = await this.admin.setCallbackUrl(merchantId, dto.url);
    return new Reply(
      m.payinCallbackUrl ? 'Pay-in callback URL set' : 'Pay-in callback URL cleared',
      consoleMerchant(m),
    );
  }

  /** The merchant's own rate limits (null: the gateway's default); they apply from its next request. */
  @RequiresRecentAuth()
  @Put('rate-limits')
  @HttpCode(200)
  @Audited('merchant.rate-limits', merchantTarget, { merchantChanges: true })
  async setRateLimits(
    @MerchantId() merchantId: number,
    @Body() dto: RateLimitsDto,
  ): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Rate limits set', consoleMerchant(await this.admin.setRateLimits(merchantId, dto)));
  }
}
