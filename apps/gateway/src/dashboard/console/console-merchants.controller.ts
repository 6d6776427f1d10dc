import { Body, Controller, Get, HttpCode, Inject, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { formatAmountString, type Minor } from '@pay/domain';
import { BalanceRepository, describeMerchant, MerchantAdmin, type MerchantView, type PrismaClient } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { PRISMA } from '../../gateway.tokens';
import { AdminErrorsInterceptor, MerchantId } from '../../ops/admin-errors';
import { CreateMerchantDto } from '../../ops/merchant-ops.controller';
import { onboardMerchant } from '../../ops/operator-actions';
import { OperatorSessionGuard } from '../auth/session.guards';
import { Audited } from './console-audit.interceptor';
import { RequiresRecentAuth } from '../auth/requires-recent-auth.decorator';

const NO_BALANCE = { available: 0n, pending: 0n };

/** A merchant as the ops API describes it, with its balance (Rupiah as decimal strings, as the fees). */
function merchantWithBalance(m: MerchantView, balance: { available: Minor; pending: Minor } = NO_BALANCE) {
  return { ...describeMerchant(m), balance: { available: formatAmountString(balance.available), pending: formatAmountString(balance.pending) } };
}

/** The console's merchants: the ops API's MerchantAdmin, behind an operator session, every change audited. */
@ApiExcludeController()
@Controller('console/api')
@UseGuards(OperatorSessionGuard)
@UseInterceptors(AdminErrorsInterceptor)
export class ConsoleMerchantsController {
  private readonly admin: MerchantAdmin;

  constructor(
    @Inject(PRISMA) prisma: PrismaClient,
    @Inject(BalanceRepository) private readonly balances: BalanceRepository,
  ) {
    this.admin = new MerchantAdmin(prisma);
  }

  @Get('merchants')
  async list() {
    const [all, balances] = await Promise.all([this.admin.list(), this.balances.all()]);
    return new Reply(`${all.length} merchant(s)`, all.map((m) => merchantWithBalance(m, balances.get(m.id))));
  }

  @Get('merchants/:merchantId')
  async show(@MerchantId() merchantId: number) {
    const m = await this.admin.get(merchantId);
    return new Reply('Merchant found', merchantWithBalance(m, await this.balances.get(merchantId)));
  }

  /** The first API token and the webhook secret are in this answer only. */
  @RequiresRecentAuth()
  @Post('merchants')
  @HttpCode(201)
  @Audited('merchant.create', ({ data }) => `merchant:${String(data.merchantId)}`)
  async create(@Body() dto: CreateMerchantDto) {
    return onboardMerchant(this.admin, dto.name, 'console');
  }

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/activate')
  @HttpCode(200)
  @Audited('merchant.activate', ({ params }) => `merchant:${params.merchantId}`)
  async activate(@MerchantId() merchantId: number) {
    return new Reply('Merchant activated', describeMerchant(await this.admin.setActive(merchantId, true)));
  }

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/deactivate')
  @HttpCode(200)
  @Audited('merchant.deactivate', ({ params }) => `merchant:${params.merchantId}`)
  async deactivate(@MerchantId() merchantId: number) {
    return new Reply('Merchant deactivated', describeMerchant(await this.admin.setActive(merchantId, false)));
  }
}
