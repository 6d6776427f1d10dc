import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type { BatchPreviewView, BatchSubmissionView, BatchView } from '@pay/contracts/dashboard';
import { formatAmount } from '@pay/domain';
import { BatchRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { type DashboardPrincipal, Principal, SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentBatch, presentBatchSubmission } from '../../kernel/presenters/batch.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { BatchPayoutService } from '../../services/disbursement/batch-payout.service';
import { BatchPageQuery, BatchRowDto, BatchRowsDto, DisbursementBatchDto } from '../../kernel/dto/disbursement.dto';

/**
 * Batch payouts from the merchant dashboard (issue 44): a CSV's rows previewed (each row's answer,
 * as a submission would give it now, nothing recorded), submitted (the merchant API's batch: the
 * same service, the same rules, a recent password, audited), and followed.
 */
@Controller('dashboard/api/payouts/batch')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardPayoutBatchesController {
  constructor(
    private readonly batchPayouts: BatchPayoutService,
    private readonly batches: BatchRepository,
  ) {}

  @RateLimit('read')
  @Post('preview')
  @RoleReach('payouts:write')
  @HttpCode(200)
  async preview(@SessionMerchantId() merchantId: number, @Body() dto: BatchRowsDto): Promise<Reply<BatchPreviewView>> {
    const rows = await this.batchPayouts.preview({ id: merchantId }, dto.rows, BatchRowDto);
    const accepted = rows.filter((r) => !r.refusal);
    return new Reply('Preview', {
      rowCount: rows.length,
      accepted: accepted.length,
      refused: rows.length - accepted.length,
      acceptedAmount: formatAmount(accepted.reduce((sum, r) => sum + (r.amount ?? 0n), 0n)),
      rows: rows.map((r) => ({
        rowNo: r.rowNo,
        merchantTrxId: r.merchantTrxId,
        result: r.refusal ? 'refused' : 'accepted',
        ...(r.refusal ? { code: r.refusal.code, message: r.refusal.message } : {}),
      })),
    });
  }

  @RateLimit('write')
  @RequiresRecentAuth()
  @Post()
  @RoleReach('payouts:write')
  // The row keeps the counts, not the rows (up to 1,000): the batch itself has them.
  @Audited('payout.batch', ({ data }) => `batch:${String(data.batchId)}`, {
    details: ({ data }) => ({ rowCount: data.rowCount, accepted: data.accepted, refused: data.refused }),
  })
  @HttpCode(200)
  async submit(
    @Principal() principal: DashboardPrincipal,
    @Body() dto: DisbursementBatchDto,
  ): Promise<Reply<BatchSubmissionView>> {
    const { batch, rows } = await this.batchPayouts.submit(
      { id: principal.merchantId as number, userId: principal.userId },
      { batchId: dto.batchId, notifyUrl: dto.notifyUrl ?? null, rows: dto.rows },
      BatchRowDto,
    );
    return new Reply('Batch diterima, akan segera diproses', presentBatchSubmission(batch, rows));
  }

  @RateLimit('read')
  @Get(':batchId')
  @RoleReach('payouts:read')
  async show(
    @SessionMerchantId() merchantId: number,
    @Param('batchId') batchId: string,
    @Query() query: BatchPageQuery,
  ): Promise<Reply<BatchView>> {
    const batch = await this.batches.find(merchantId, batchId);
    if (!batch) throw new ApiError(ErrorCode.BatchNotFound);
    const page = { page: query.page ?? 1, pageSize: query.pageSize ?? 1000 };
    const rows = await this.batches.rows(batch.id, (page.page - 1) * page.pageSize, page.pageSize);
    return new Reply('Query success', presentBatch(batch, rows, page));
  }
}
