import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { parseReconDate } from '@pay/domain';
import { type ReconExport, ReconExportRepository } from '@pay/persistence';
import { ApiError, type ObjectStore, Reply, type ReconExportProducer } from '@pay/platform';
import { IsString } from 'class-validator';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, OBJECT_STORE, RECON_PRODUCER } from '../gateway.tokens';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../openapi/api-envelope.decorator';
import { ReconExportJobSchema } from '../openapi/schemas';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { RateLimiter } from '../rate-limit/rate-limiter';

class ReconFileDto {
  @ApiProperty({ example: '2026-11-22', description: 'A day in Asia/Jakarta, YYYY-MM-DD, not in the future and not before the merchant account was created' })
  @IsString()
  date!: string;
}

const NOTE = 'The export is being prepared. Send the same request again to check its status and get the download link.';

/** What a merchant at its cap of exports in progress is told to wait: a typical export takes seconds. */
const OUTSTANDING_RETRY_AFTER_SECONDS = 10;

/**
 * Spec 4.6: the recon CSV of one date as an asynchronous job. First request queues it; the
 * same request while it runs answers the same job; once ready, a fresh presigned URL each time.
 * A file whose pay-ins changed since it was built is rebuilt (a new job); a failed export is
 * reported once, and the next request starts a new one.
 *
 * Checking an export counts as a read; starting a new one also counts against the merchant's
 * export budget (RATE_LIMIT_EXPORT_PER_MINUTE) and is refused while RECON_EXPORT_MAX_OUTSTANDING
 * of its exports are queued or running, so one merchant's backlog never delays another's export.
 */
@ApiMerchant('Reconciliation')
@Controller('api/v1/payin')
@UseGuards(MerchantAuthGuard)
export class ReconController {
  constructor(
    private readonly exports: ReconExportRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(RECON_PRODUCER) private readonly producer: ReconExportProducer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly limiter: RateLimiter,
  ) {}

  @Post('reconFile')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({
    operationId: 'exportRecon',
    summary: 'Reconciliation CSV of one date (spec 4.6)',
    description:
      'First request: Export job queued (jobId, note). The same request while it runs: the same answer. Once built: Export ready (jobId, download). A failed export answers 500 RECON_EXPORT_FAILED once; the next request starts a new one. More than RECON_EXPORT_MAX_OUTSTANDING exports in progress: 429.',
  })
  @ApiBody({ type: ReconFileDto })
  @ApiEnvelope(ReconExportJobSchema, { message: ['Export job queued', 'Export ready'] })
  @ApiErrors(ErrorCode.ReconExportFailed)
  async reconFile(@Req() req: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() dto: ReconFileDto) {
    const day = parseReconDate(dto.date, new Date(), req.merchant.createdAt);
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
    await this.limiter.enforce(req.merchant, 'export', reply);
    const cap = this.config.RECON_EXPORT_MAX_OUTSTANDING;
    const created = await this.exports.createQueuedWithin(merchantId, day.date, cap);
    if (!created) {
      this.limiter.refuse('export', reply, OUTSTANDING_RETRY_AFTER_SECONDS, `${cap} of your exports are already being prepared; retry after ${OUTSTANDING_RETRY_AFTER_SECONDS} s, once one of them is ready`);
    }
    await this.producer.enqueue(created.id);
    return this.queued(created);
  }

  private queued(e: ReconExport) {
    return new Reply('Export job queued', { jobId: e.id, note: NOTE });
  }
}
