import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { describeMerchant, MerchantAdmin } from '@pay/backoffice';
import type { MerchantView } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { MerchantId } from '../../kernel/http/path-params';
import { AdminTokenGuard } from '../../kernel/auth/admin/admin-token.guard';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiMerchantIdParam, ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { AllowlistDto, FeesDto, QrisDto, SettlementScheduleDto } from '../../kernel/dto/merchant-settings.dto';
import { MerchantAllowlistSchema, MerchantDescriptionSchema } from './ops.schemas';
import { Audited } from '../../kernel/audit/audit.interceptor';

const allowlistView = (m: MerchantView) => ({ merchantId: m.id, ...describeMerchant(m).ipAllowlist });

/**
 * A merchant's settings over HTTP (the CLI's `merchant set-fees|set-qris|set-settlement` and
 * `allowlist ...`): the same MerchantAdmin methods, so the same rules and the same refusals.
 * Each applies from the merchant's next request.
 */
@ApiOps('Merchant settings')
@ApiMerchantIdParam()
@Controller('ops/merchants/:merchantId')
@UseGuards(AdminTokenGuard)
export class MerchantSettingsOpsController {
  constructor(private readonly admin: MerchantAdmin) {}

  @Put('fees')
  @Audited('merchant.fees', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setMerchantFees',
    summary: 'Set the pay-in and disbursement fees (an absent field is left as it is)',
  })
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Fees set' })
  async setFees(@MerchantId() merchantId: number, @Body() dto: FeesDto) {
    return new Reply('Fees set', describeMerchant(await this.admin.setFeesFromInput(merchantId, dto)));
  }

  @Put('qris')
  @Audited('merchant.qris-identity', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({ operationId: 'setMerchantQris', summary: 'Set the QRIS identity printed into every code' })
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'QRIS identity set' })
  async setQris(@MerchantId() merchantId: number, @Body() dto: QrisDto) {
    return new Reply('QRIS identity set', describeMerchant(await this.admin.setQris(merchantId, dto)));
  }

  @Put('settlement-schedule')
  @Audited('merchant.settlement-schedule', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setMerchantSettlementSchedule',
    summary: 'Set the settlement schedule (T+delayDays at hour:00 Asia/Jakarta)',
  })
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Settlement schedule set' })
  async setSettlementSchedule(@MerchantId() merchantId: number, @Body() dto: SettlementScheduleDto) {
    return new Reply(
      'Settlement schedule set',
      describeMerchant(await this.admin.setSettlementSchedule(merchantId, dto)),
    );
  }

  @Get('allowlist')
  @ApiOperation({ operationId: 'getMerchantAllowlist', summary: 'The pay-in IP allowlist' })
  @ApiEnvelope(MerchantAllowlistSchema, { message: 'Allowlist found' })
  async showAllowlist(@MerchantId() merchantId: number) {
    return new Reply('Allowlist found', allowlistView(await this.admin.get(merchantId)));
  }

  /** Replaces the list; `enabled` (optional) switches enforcement in the same update. */
  @Put('allowlist')
  @Audited('merchant.allowlist', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setMerchantAllowlist',
    summary: 'Replace the pay-in IP allowlist; `enabled` (optional) switches enforcement too',
  })
  @ApiEnvelope(MerchantAllowlistSchema, {
    message: ['Allowlist set', 'Allowlist set; it is enabled and empty, so every request of this merchant is refused'],
  })
  async setAllowlist(@MerchantId() merchantId: number, @Body() dto: AllowlistDto) {
    const m = await this.admin.setAllowlist(merchantId, dto.entries, dto.enabled);
    return new Reply(
      m.ipAllowlistEnabled && m.ipAllowlist.length === 0
        ? 'Allowlist set; it is enabled and empty, so every request of this merchant is refused'
        : 'Allowlist set',
      allowlistView(m),
    );
  }

  @Post('allowlist/enable')
  @Audited('merchant.allowlist-enable', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({ operationId: 'enableMerchantAllowlist', summary: 'Enforce the allowlist' })
  @ApiEnvelope(MerchantAllowlistSchema, {
    message: ['Allowlist enabled', 'Allowlist enabled; it is empty, so every request of this merchant is refused'],
  })
  async enableAllowlist(@MerchantId() merchantId: number) {
    const m = await this.admin.setAllowlistEnabled(merchantId, true);
    return new Reply(
      m.ipAllowlist.length === 0
        ? 'Allowlist enabled; it is empty, so every request of this merchant is refused'
        : 'Allowlist enabled',
      allowlistView(m),
    );
  }

  @Post('allowlist/disable')
  @Audited('merchant.allowlist-disable', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({ operationId: 'disableMerchantAllowlist', summary: 'Stop enforcing the allowlist' })
  @ApiEnvelope(MerchantAllowlistSchema, { message: 'Allowlist disabled' })
  async disableAllowlist(@MerchantId() merchantId: number) {
    return new Reply('Allowlist disabled', allowlistView(await this.admin.setAllowlistEnabled(merchantId, false)));
  }

  /** Empties the list and stops enforcing it. */
  @Delete('allowlist')
  @Audited('merchant.allowlist-clear', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({ operationId: 'clearMerchantAllowlist', summary: 'Empty the allowlist and stop enforcing it' })
  @ApiEnvelope(MerchantAllowlistSchema, { message: 'Allowlist cleared' })
  async clearAllowlist(@MerchantId() merchantId: number) {
    return new Reply('Allowlist cleared', allowlistView(await this.admin.clearAllowlist(merchantId)));
  }
}
