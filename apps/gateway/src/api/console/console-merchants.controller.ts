import { Controller, Get, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleMerchantView, ConsoleMerchantWithBalanceView } from '@pay/contracts/dashboard';
import { MerchantAdmin } from '@pay/backoffice';
import { BalanceRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { MerchantId } from '../../kernel/http/path-params';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { consoleMerchant, consoleMerchantWithBalance } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

/**
 * The console's merchants, as the console shows them (amounts as numbers, with the balance): the
 * ops API's MerchantAdmin, behind an operator session, every change audited. Creating one is the
 * operators' controller set's (MerchantOpsController), as it answers the same.
 */
@ApiExcludeController()
@Controller('console/api')
@UseGuards(OperatorSessionGuard)
export class ConsoleMerchantsController {
  constructor(
    private readonly admin: MerchantAdmin,
    @Inject(BalanceRepository) private readonly balances: BalanceRepository,
  ) {}

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

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/activate')
  @HttpCode(200)
  @Audited('merchant.activate', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  async activate(@MerchantId() merchantId: number): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Merchant activated', consoleMerchant(await this.admin.setActive(merchantId, true)));
  }

  @RequiresRecentAuth()
  @Post('merchants/:merchantId/deactivate')
  @HttpCode(200)
  @Audited('merchant.deactivate', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  async deactivate(@MerchantId() merchantId: number): Promise<Reply<ConsoleMerchantView>> {
    return new Reply('Merchant deactivated', consoleMerchant(await this.admin.setActive(merchantId, false)));
  }
}
