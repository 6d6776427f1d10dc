import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type { ReconJobView } from '@pay/contracts/dashboard';
import type { PrismaClient, ReconExport, ReconFileKind } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { FastifyReply } from 'fastify';
import { PRISMA } from '../../gateway.tokens';
import { reconDateOf, ReconExportService } from '../../services/recon/recon-export.service';
import { ReconFileDto } from '../../kernel/dto/recon-file.dto';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { RateLimiter } from '../../kernel/rate-limit/rate-limiter';
import { requestBudget } from '../../kernel/rate-limit/request-budget';
import { Audited } from '../../kernel/audit/audit.interceptor';

/** Recon exports from the dashboard: the same jobs, budget and cap as the API's reconFile. */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardReconController {
  constructor(
    private readonly recon: ReconExportService,
    private readonly limiter: RateLimiter,
    @Inject(PRISMA) private readonly prisma: PrismaClient,
  ) {}

  @RateLimit('read')
  @Post('recon')
  @RoleReach('reports:read')
  // The pay-ins file keeps its target (recon:<date>); the other files name their type.
  @Audited('recon.export', ({ data }) =>
    data.type === 'payins' ? `recon:${String(data.date)}` : `recon:${String(data.date)}:${String(data.type)}`,
  )
  @HttpCode(200)
  async request(
    @SessionMerchantId() merchantId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() dto: ReconFileDto,
  ): Promise<Reply<ReconJobView>> {
    const m = await this.prisma.merchant.findUniqueOrThrow({
      where: { id: merchantId },
      select: { id: true, createdAt: true, rateLimitRead: true, rateLimitWrite: true, rateLimitExport: true },
    });
    const merchant = {
      id: m.id,
      createdAt: m.createdAt,
      rateLimits: { read: m.rateLimitRead, write: m.rateLimitWrite, export: m.rateLimitExport },
    };
    const r = await this.recon.request(
      { merchant, date: dto.date, kind: dto.type },
      requestBudget(this.limiter, merchant, 'export', reply),
    );
    if (r.status === 'ready')
      return new Reply('Export ready', {
        ...jobView(r.export),
        status: r.status,
        download: r.download,
      });
    return new Reply('Export job queued', { ...jobView(r.export), status: r.status });
  }

  @RateLimit('read')
  @Get('recon/:jobId')
  @RoleReach('reports:read')
  async status(@SessionMerchantId() merchantId: number, @Param('jobId') jobId: string): Promise<Reply<ReconJobView>> {
    const job = await this.recon.job(merchantId, jobId);
    if (!job) throw new ApiError(ErrorCode.NotFound, 'Export job not found');
    const data: ReconJobView = { ...jobView(job.export), status: job.status };
    return new Reply('Export job found', job.status === 'ready' ? { ...data, download: job.download } : data);
  }
}

const jobView = (e: ReconExport) => ({ jobId: e.id, date: reconDateOf(e), type: e.kind as ReconFileKind });
