import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AuditLogPageView } from '@pay/contracts/dashboard';
import { AuditLogRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, IsString, MaxLength } from 'class-validator';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentAuditPage } from './console.presenter';
import { AuditPageQuery } from '../../kernel/audit/audit-page.query';

export class AuditLogQuery extends AuditPageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsPositive()
  operatorUserId?: number;

  /** e.g. merchant:7 */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  target?: string;
}

/** What operators did, newest first. */
@ApiExcludeController()
@Controller('console/api/audit-log')
@UseGuards(OperatorSessionGuard)
export class ConsoleAuditLogController {
  constructor(@Inject(AuditLogRepository) private readonly audit: AuditLogRepository) {}

  @Get()
  async list(@Query() q: AuditLogQuery): Promise<Reply<AuditLogPageView>> {
    const page = await this.audit.list({
      before: q.before === undefined ? undefined : BigInt(q.before),
      limit: q.limit,
      operatorUserId: q.operatorUserId,
      target: q.target,
    });
    return new Reply(`${page.entries.length} audit entry(ies)`, presentAuditPage(page));
  }
}
