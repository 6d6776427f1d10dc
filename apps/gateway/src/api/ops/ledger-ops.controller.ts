import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { auditLedger, booksTrialBalance } from '@pay/backoffice';
import { ApiOperation, ApiPropertyOptional } from '@nestjs/swagger';
import type { PrismaClient } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Matches, Max, Min } from 'class-validator';
import { PRISMA } from '../../gateway.tokens';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { LedgerReportSchema, TrialBalanceSchema } from './ops.schemas';

class LedgerVerifyQuery {
  /** Audit this merchant only */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Audit this merchant only' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsPositive()
  merchantId?: number;

  /** Seconds during which an unbooked pay-in or refund counts as in flight (as the CLI's --grace) */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 86_400,
    description:
      "Seconds during which an unbooked pay-in or refund counts as in flight (as the CLI's --grace); default 300",
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86_400)
  grace?: number;
}

class TrialBalanceQuery {
  @ApiPropertyOptional({
    example: '2026-11-28',
    description: 'At the close of this day in Asia/Jakarta (default: now)',
  })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be a date in the format YYYY-MM-DD' })
  date?: string;
}

/** The ledger audit (`admin ledger verify`) and the books' trial balance over HTTP, for dashboards and the console's Ledger page, as JSON. */
@ApiOps('Ledger')
@Controller()
@UseGuards(OperatorGuard)
export class LedgerOpsController {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  @Get(['ops/ledger/verify', 'console/api/ledger/verify'])
  @ApiOperation({ operationId: 'verifyLedger', summary: 'The ledger audit (admin ledger verify) as JSON' })
  @ApiEnvelope(LedgerReportSchema, {
    message: 'Ledger audit: clean',
    messagePattern: '^Ledger audit: (clean|\\d+ breach\\(es\\))$',
  })
  async verify(@Query() q: LedgerVerifyQuery) {
    const report = await auditLedger(this.prisma, { merchantId: q.merchantId, graceSeconds: q.grace });
    return new Reply(
      report.breaches.length ? `Ledger audit: ${report.breaches.length} breach(es)` : 'Ledger audit: clean',
      report,
    );
  }

  @Get(['ops/ledger/trial-balance', 'console/api/ledger/trial-balance'])
  @ApiOperation({
    operationId: 'trialBalance',
    summary: "The platform's books: every account as a debit or a credit, and the totals (admin ledger trial-balance)",
  })
  @ApiEnvelope(TrialBalanceSchema, {
    message: 'Trial balance: balanced',
    messagePattern: '^Trial balance: (balanced|NOT balanced)$',
  })
  async trialBalance(@Query() q: TrialBalanceQuery) {
    const tb = await booksTrialBalance(this.prisma, { date: q.date });
    return new Reply(tb.balanced ? 'Trial balance: balanced' : 'Trial balance: NOT balanced', tb);
  }
}
