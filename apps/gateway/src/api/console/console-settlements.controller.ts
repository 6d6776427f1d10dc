import { Body, Controller, Get, HttpCode, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleSettlementView } from '@pay/contracts/dashboard';
import { type PrismaClient, SettlementListRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { PRISMA } from '../../gateway.tokens';
import { RunSettlementDto } from '../ops/merchant-ops.controller';
import { requestSettlement } from '../ops/operator-actions';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { presentSettlement } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

export class SettlementListQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsPositive()
  merchantId?: number;

  /** Default 100 */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** Settlements the ledger credited, and the ops API's settlement run. */
@ApiExcludeController()
@Controller('console/api/settlements')
@UseGuards(OperatorSessionGuard)
export class ConsoleSettlementsController {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(SettlementListRepository) private readonly settlements: SettlementListRepository,
  ) {}

  @Get()
  async list(@Query() q: SettlementListQuery): Promise<Reply<ConsoleSettlementView[]>> {
    const recent = await this.settlements.recent({ merchantId: q.merchantId, limit: q.limit });
    return new Reply(`${recent.length} settlement(s)`, recent.map(presentSettlement));
  }

  /** Requests the merchant's settlement for a cut-off now (default now); the ledger credits it asynchronously. */
  @RequiresRecentAuth()
  @Post('run')
  @HttpCode(200)
  @Audited('settlement.run', ({ body }) => `merchant:${String(body.merchantId)}`)
  async run(@Body() dto: RunSettlementDto) {
    return requestSettlement(this.prisma, dto.merchantId, dto.cutoff);
  }
}
