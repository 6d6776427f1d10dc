import { Body, Controller, Get, HttpCode, Inject, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type {
  ConsoleMerchantView,
  ConsoleMerchantWithBalanceView,
  MerchantCreatedView,
} from '@pay/contracts/dashboard';
import { BalanceRepository, MerchantAdmin, type PrismaClient } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { PRISMA } from '../../gateway.tokens';
import { AdminErrorsInterceptor, MerchantId } from '../../kernel/http/admin-errors';
import { CreateMerchantDto } from '../ops/merchant-ops.controller';
import { onboardMerchant } from '../ops/operator-actions';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { consoleMerchant, consoleMerchantWithBalance } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

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
  async list(): Promise<Reply<ConsoleMerchantWithBalanceView[]>> {
    const [all, balances] = await Promise.all([this.admin.list(), this.balances.all()]);
    return new Reply(
      `${all.length} merchant(s)`,
      all.map((m) => consoleMerchantWithBalance(m, balances.get(m.id))),
    );
  }

  @Get('merchants/:merchantId')
  async show(@MerchantId() merchantId: number): Promise<Reply<ConsoleMerchantWithBalanceView>> {
    const m = await this.admin.get(merchantId);
    return new Reply('Merchant found', consoleMerchantWithBalance(m, await this.balances.get(merchantId)));
  }

  /** The first API token and the webhook secret are in this answer only. */
  @RequiresRecentAuth()
  @Post('merchants')
  @HttpCode(201)
  @Audited('merchant.create', ({ data }) => `merchant:${String(data.merchantId)}`)
  async create(@Body() dto: CreateMerchantDto): Promise<Reply<MerchantCreatedView>> {
    return onboardMerchant(this.admin, dto.name, 'console');
  }

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/activate')
  @HttpCode(200)
  @Audited('merchant.activate', ({ params }) => `merchant:${params.merchantId}`)
  async activate(@MerchantId() merchantId: number): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Merchant activated', consoleMerchant(await this.admin.setActive(merchantId, true)));
  }

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/deactivate')
  @HttpCode(200)
  @Audited('merchant.deactivate', ({ params }) => `merchant:${params.merchantId}`)
  async deactivate(@MerchantId() merchantId: number): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Merchant deactivated', consoleMerchant(await this.admin.setActive(merchantId, false)));
  }
}
