import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleSettlementView } from '@pay/contracts/dashboard';
import { SettlementListRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentSettlement } from './console.presenter';

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

/** Settlements the ledger credited; the settlement run is the operators' controller set's (MerchantOpsController). */
@ApiExcludeController()
@Controller('console/api/settlements')
@UseGuards(OperatorSessionGuard)
export class ConsoleSettlementsController {
  constructor(@Inject(SettlementListRepository) private readonly settlements: SettlementListRepository) {}

  @Get()
  async list(@Query() q: SettlementListQuery): Promise<Reply<ConsoleSettlementView[]>> {
    const recent = await this.settlements.recent({ merchantId: q.merchantId, limit: q.limit });
    return new Reply(`${recent.length} settlement(s)`, recent.map(presentSettlement));
  }
}
