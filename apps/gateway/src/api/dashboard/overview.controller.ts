import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OverviewView } from '@pay/contracts/dashboard';
import { formatAmount } from '@pay/domain';
import { BalanceRepository, OverviewRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentDay } from './dashboard.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';

/** Days in the overview's chart, today (Asia/Jakarta) included. */
const DAYS = 30;

/** The dashboard's first page: the balance, today's totals and the last 30 days (days are Asia/Jakarta days). */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardOverviewController {
  constructor(
    private readonly balances: BalanceRepository,
    private readonly overview: OverviewRepository,
  ) {}

  @RateLimit('read')
  @Get('overview')
  @RoleReach('balance:read')
  async show(@SessionMerchantId() merchantId: number): Promise<Reply<OverviewView>> {
    const [balance, days] = await Promise.all([
      this.balances.get(merchantId),
      this.overview.daily(merchantId, new Date(), DAYS),
    ]);
    const today = days[days.length - 1];
    return new Reply('Overview', {
      balance: { available: formatAmount(balance.available), pending: formatAmount(balance.pending) },
      today: {
        date: today.date,
        timeZone: 'Asia/Jakarta',
        payins: { count: today.payinCount, amount: formatAmount(today.payinAmount) },
        payouts: { count: today.payoutCount, amount: formatAmount(today.payoutAmount) },
      },
      daily: days.map(presentDay),
    });
  }
}
