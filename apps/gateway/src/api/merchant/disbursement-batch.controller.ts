import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { BatchRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { presentBatch, presentBatchSubmission } from '../../kernel/presenters/batch.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { BatchPayoutService } from '../../services/disbursement/batch-payout.service';
import { BatchPageQuery, BatchRowDto, DisbursementBatchDto } from './dto/disbursement.dto';
import { BatchSchema, BatchSubmissionSchema } from './openapi/batch-schemas';

const BATCH_ID = /^[\x21-\x7E]{1,64}$/;

/** Batch payouts (issue 44; docs/batch-payouts.md). */
@ApiMerchant('Disbursement')
@Controller('api/v1/disbursement/batch')
@UseGuards(MerchantAuthGuard)
export class DisbursementBatchController {
  constructor(
    private readonly batchPayouts: BatchPayoutService,
    private readonly batches: BatchRepository,
  ) {}

  @Post()
  @RequiresScope('payouts:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'submitDisbursementBatch',
    summary: 'Submit up to 1,000 payouts at once; each row is accepted or refused on its own',
    description:
      "No account inquiry is needed: the platform checks each accepted row with the bank (and its accountName when given), then debits and sends it as a single transfer; GET the batch for each row's outcome, or wait for disbursement.batch.completed. The same batchId and body again answers the same and records nothing.",
  })
  @ApiBody({ type: DisbursementBatchDto })
  @ApiEnvelope(BatchSubmissionSchema, { message: 'Batch diterima, akan segera diproses' })
  @ApiErrors(ErrorCode.NotifyUrlNotAllowed, ErrorCode.BatchIdConflict, ErrorCode.PayloadTooLarge)
  async submit(@Req() req: AuthenticatedRequest, @Body() dto: DisbursementBatchDto) {
    const { batch, rows } = await this.batchPayouts.submit(
      req.merchant,
      { batchId: dto.batchId, notifyUrl: dto.notifyUrl ?? null, rows: dto.rows },
      BatchRowDto,
    );
    return new Reply('Batch diterima, akan segera diproses', presentBatchSubmission(batch, rows));
  }

  @Get(':batchId')
  @RequiresScope('payouts:read')
  @RateLimit('read')
  @ApiOperation({
    operationId: 'getDisbursementBatch',
    summary: 'A batch: counts per status, totals, and a page of its rows with their outcomes',
  })
  @ApiParam({ name: 'batchId', description: 'The batchId it was submitted with' })
  @ApiEnvelope(BatchSchema, { message: 'Query success' })
  @ApiErrors(ErrorCode.BatchNotFound)
  async get(@Req() req: AuthenticatedRequest, @Param('batchId') batchId: string, @Query() query: BatchPageQuery) {
    const batch = BATCH_ID.test(batchId) ? await this.batches.find(req.merchant.id, batchId) : null;
    if (!batch) throw new ApiError(ErrorCode.BatchNotFound);
    const page = { page: query.page ?? 1, pageSize: query.pageSize ?? 100 };
    const rows = await this.batches.rows(batch.id, (page.page - 1) * page.pageSize, page.pageSize);
    return new Reply('Query success', presentBatch(batch, rows, page));
  }
}
