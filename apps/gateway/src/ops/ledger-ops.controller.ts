import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type PrismaClient, verifyLedger } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { PRISMA } from '../gateway.tokens';
import { AdminTokenGuard } from './admin-auth';

class LedgerVerifyQuery {
  /** Audit this merchant only */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsPositive()
  merchantId?: number;

  /** Seconds during which an unbooked pay-in or refund counts as in flight (as the CLI's --grace) */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86_400)
  grace?: number;
}

/** The ledger audit (`admin ledger verify`) over HTTP, for dashboards: the report as JSON. */
@ApiExcludeController()
@Controller('ops/ledger')
@UseGuards(AdminTokenGuard)
export class LedgerOpsController {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  @Get('verify')
  async verify(@Query() q: LedgerVerifyQuery) {
    const report = await verifyLedger(this.prisma, { merchantIds: q.merchantId ? [q.merchantId] : undefined, graceSeconds: q.grace ?? 300 });
    return new Reply(report.breaches.length ? `Ledger audit: ${report.breaches.length} breach(es)` : 'Ledger audit: clean', report);
  }
}
