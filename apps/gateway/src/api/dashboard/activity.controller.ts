import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ActivityPageView } from '@pay/contracts/dashboard';
import { AuditLogRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { AuditPageQuery } from '../../kernel/audit/audit-page.query';

/** What the merchant's dashboard users did (the audit rows of its merchant), newest first. */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardActivityController {
  constructor(@Inject(AuditLogRepository) private readonly audit: AuditLogRepository) {}

  @RateLimit('read')
  @Get('activity')
  @RoleReach('any')
  async list(@SessionMerchantId() merchantId: number, @Query() q: AuditPageQuery): Promise<Reply<ActivityPageView>> {
    const page = await this.audit.listForMerchant(merchantId, {
      before: q.before === undefined ? undefined : BigInt(q.before),
      limit: q.limit,
    });
    return new Reply(`${page.entries.length} activity entry(ies)`, {
      entries: page.entries.map((e) => ({
        id: e.id,
        userId: e.operatorUserId,
        userEmail: e.operatorEmail,
        action: e.action,
        target: e.target,
        details: e.details,
        logId: e.logId,
        at: e.at.toISOString(),
      })),
      nextBefore: page.nextBefore,
    });
  }
}
