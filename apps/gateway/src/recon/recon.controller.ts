import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { parseReconDate } from '@pay/domain';
import { type ReconExport, ReconExportRepository } from '@pay/persistence';
import { ApiError, type ObjectStore, Reply, type ReconExportProducer } from '@pay/platform';
import { IsString } from 'class-validator';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { MerchantAuthGuard, TOKEN_HEADER } from '../auth/merchant-auth.guard';
import { OBJECT_STORE, RECON_PRODUCER } from '../gateway.tokens';
import { ErrorResponse } from '../openapi/error-response';

class ReconFileDto {
  @ApiProperty({ example: '2026-11-22', description: 'A day in Asia/Jakarta, YYYY-MM-DD, not in the future' })
  @IsString()
  date!: string;
}

const NOTE = 'The export is being prepared. Send the same request again to check its status and get the download link.';

/**
 * Spec 4.6: the recon CSV of one date as an asynchronous job. First request queues it; the
 * same request while it runs answers the same job; once ready, a fresh presigned URL each time.
 * A file whose pay-ins changed since it was built is rebuilt (a new job); a failed export is
 * reported once, and the next request starts a new one.
 */
@ApiTags('Pay-in')
@ApiHeader({ name: TOKEN_HEADER, required: true, description: 'Merchant API token' })
@Controller('api/v1/payin')
@UseGuards(MerchantAuthGuard)
export class ReconController {
  constructor(
    private readonly exports: ReconExportRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(RECON_PRODUCER) private readonly producer: ReconExportProducer,
  ) {}

  @Post('reconFile')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reconciliation CSV of one date (spec 4.6)' })
  @ApiBody({ type: ReconFileDto })
  @ApiResponse({ status: 200, description: 'Export job queued | Export ready' })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_ERROR (date)' })
  @ApiResponse({ status: 500, type: ErrorResponse, description: 'RECON_EXPORT_FAILED: send the request again to start a new export' })
  async reconFile(@Req() req: AuthenticatedRequest, @Body() dto: ReconFileDto) {
    const day = parseReconDate(dto.date, new Date());
    if (!day.ok) throw new ApiError(ErrorCode.ValidationError, `date: ${day.problem}`, [{ field: 'date', message: day.problem }]);
    const merchantId = req.merchant.id;
    const latest = await this.exports.latest(merchantId, day.date);

    if (latest?.status === 'queued' || latest?.status === 'running') {
      // Enqueued again on every check (a no-op while its job exists: the job id is the export id), so an export
      // whose job was never queued (Redis away at that moment) or lost (Redis restarted mid-attempt) goes on at
      // the next check instead of waiting for the workers' sweeper.
      await this.producer.enqueue(latest.id);
      return this.queued(latest);
    }
    if (latest?.status === 'ready' && latest.objectKey && !(await this.exports.isStale(latest, day.from, day.to))) {
      const download = await this.store.presignGet(latest.objectKey, `recon-${merchantId}-${day.date}.csv`);
      return new Reply('Export ready', { jobId: latest.id, download });
    }
    if (latest?.status === 'failed' && !latest.failureReported) {
      await this.exports.markFailureReported(latest.id);
      throw new ApiError(ErrorCode.ReconExportFailed, `The export for ${day.date} failed; send the request again to start a new export`);
    }
    const created = await this.exports.createQueued(merchantId, day.date);
    await this.producer.enqueue(created.id);
    return this.queued(created);
  }

  private queued(e: ReconExport) {
    return new Reply('Export job queued', { jobId: e.id, note: NOTE });
  }
}
