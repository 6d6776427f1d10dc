import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { Reply } from '@pay/platform';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { ReconExportJobSchema } from './openapi/schemas';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { RateLimiter } from '../../kernel/rate-limit/rate-limiter';
import { requestBudget } from '../../kernel/rate-limit/request-budget';
import { ReconExportService } from '../../services/recon/recon-export.service';
import { ReconFileDto } from '../../kernel/dto/recon-file.dto';

const NOTE = 'The export is being prepared. Send the same request again to check its status and get the download link.';

/**
 * Spec 4.6: the recon CSV of one date as an asynchronous job (ReconExportService). Checking an
 * export counts as a read; starting a new one also counts against the merchant's export budget.
 */
@ApiMerchant('Reconciliation')
@Controller('api/v1/payin')
@UseGuards(MerchantAuthGuard)
export class ReconController {
  constructor(
    private readonly recon: ReconExportService,
    private readonly limiter: RateLimiter,
  ) {}

  @Post('reconFile')
  @RequiresScope('reports:read')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({
    operationId: 'exportRecon',
    summary: 'Reconciliation CSV of one date',
    description:
      'The pay-ins of the day by default; `type` asks for the payouts or the balance movements of the day instead, each an export of its own. First request: Export job queued (jobId, note). The same request while it runs: the same answer. Once built: Export ready (jobId, download). A failed export answers 500 RECON_EXPORT_FAILED once; the next request starts a new one. More than RECON_EXPORT_MAX_OUTSTANDING exports in progress: 429.',
  })
  @ApiBody({ type: ReconFileDto })
  @ApiEnvelope(ReconExportJobSchema, { message: ['Export job queued', 'Export ready'] })
  @ApiErrors(ErrorCode.ReconExportFailed)
  async reconFile(
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() dto: ReconFileDto,
  ) {
    const r = await this.recon.request(
      { merchant: req.merchant, date: dto.date, kind: dto.type },
      requestBudget(this.limiter, req.merchant, 'export', reply),
    );
    if (r.status === 'ready') return new Reply('Export ready', { jobId: r.export.id, download: r.download });
    return new Reply('Export job queued', { jobId: r.export.id, note: NOTE });
  }
}
