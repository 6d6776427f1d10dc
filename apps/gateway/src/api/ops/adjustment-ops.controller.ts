import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { adjustmentView, BookAdjustments } from '@pay/backoffice';
import { ErrorCode } from '@pay/contracts';
import type { AdjustmentStatus } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { auditAs } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { ApiEnvelope, errorResponses } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps, OPS_COMMON_ERRORS } from '../../kernel/openapi/ops-api.decorator';
import { AdjustmentSchema } from './ops.schemas';

const STATUSES = ['requested', 'approved', 'rejected', 'expired'] as const;

class AdjustmentLineDto {
  @ApiProperty({ maxLength: 120, example: 'merchant:7:available', description: 'An account of the chart' })
  @IsString()
  @MaxLength(120)
  account!: string;

  @ApiProperty({ example: -150000, description: 'Rupiah, at most two decimals: a debit positive, a credit negative' })
  @IsNumber()
  amount!: number;
}

class RequestAdjustmentDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 7,
    description:
      "The merchant whose available it moves (its `merchant:<id>:available` line); absent or null: the platform's own accounts only",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  merchantId?: number | null;

  @ApiProperty({
    type: [AdjustmentLineDto],
    minItems: 2,
    maxItems: 20,
    description: 'One line per account, summing to 0',
    example: [
      { account: 'expense:adjustments', amount: 150000 },
      { account: 'merchant:7:available', amount: -150000 },
    ],
  })
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => AdjustmentLineDto)
  postings!: AdjustmentLineDto[];

  @ApiProperty({ maxLength: 500, example: 'Goodwill credit for the QRIS outage of 2026-11-20 (ticket OPS-77)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason!: string;
}

class ApproveAdjustmentDto {
  @ApiPropertyOptional({ maxLength: 500, example: 'Checked against the outage report' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}

class RejectAdjustmentDto {
  @ApiProperty({ maxLength: 500, example: 'The outage credit was already paid as a settlement correction' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  note!: string;
}

class AdjustmentListQuery {
  @ApiPropertyOptional({
    enum: STATUSES,
    description: 'Only this status (as shown: a request past its expiry is expired)',
  })
  @IsOptional()
  @IsIn(STATUSES)
  status?: AdjustmentStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Only this merchant's" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  merchantId?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, description: 'Default: 100' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

const ID = { name: 'id', description: 'The adjustment id', schema: { type: 'string', format: 'uuid' } } as const;

/**
 * Manual adjustments of the books, maker-checker (also the admin CLI's `adjustment ...` and the
 * console's Adjustments page, /console/api/adjustments: an operator's session, a recent password
 * for every change). One operator requests, another approves or rejects; who is who is the audit
 * log's actor: the console's operator, or `ops-api` for the admin token (one identity: a request
 * made with it is approved from the console or the CLI). Each step's audit row is written in
 * its transaction.
 */
@ApiOps('Adjustments')
@Controller()
@UseGuards(OperatorGuard)
export class AdjustmentOpsController {
  constructor(private readonly adjustments: BookAdjustments) {}

  @Get(['ops/adjustments', 'console/api/adjustments'])
  @ApiOperation({
    operationId: 'listAdjustments',
    summary: 'Adjustments, newest first, each with its status and, once approved, what the ledger made of it',
  })
  @ApiEnvelope(AdjustmentSchema, {
    message: '1 adjustment(s)',
    messagePattern: '^\\d+ adjustment\\(s\\)$',
    isArray: true,
  })
  async list(@Query() q: AdjustmentListQuery) {
    const rows = await this.adjustments.list({ status: q.status, merchantId: q.merchantId, limit: q.limit });
    return new Reply(`${rows.length} adjustment(s)`, rows.map(adjustmentView));
  }

  @Get(['ops/adjustments/:id', 'console/api/adjustments/:id'])
  @ApiOperation({ operationId: 'getAdjustment', summary: 'One adjustment' })
  @ApiParam(ID)
  @ApiEnvelope(AdjustmentSchema, { message: 'Adjustment found' })
  async show(@Param('id') id: string) {
    return new Reply('Adjustment found', adjustmentView(await this.adjustments.get(id)));
  }

  @RequiresRecentAuth()
  @Post(['ops/adjustments', 'console/api/adjustments'])
  @HttpCode(201)
  @ApiOperation({
    operationId: 'requestAdjustment',
    summary: 'Ask for a manual adjustment of the books; another operator approves or rejects it',
    description:
      "The lines are checked as the ledger will book them: accounts of the chart, one line per account, amounts other than zero summing to 0; a merchant's only its available, and only the named merchant's (which must then be moved). Nothing is booked until another operator approves it; an undecided request expires after 72 hours.",
  })
  @ApiEnvelope(AdjustmentSchema, { message: 'Adjustment requested', status: 201 })
  async request(@Body() dto: RequestAdjustmentDto, @Req() req: FastifyRequest) {
    const a = await this.adjustments.request(
      { merchantId: dto.merchantId ?? null, postings: dto.postings, reason: dto.reason },
      auditAs(req),
    );
    return new Reply('Adjustment requested', adjustmentView(a));
  }

  @RequiresRecentAuth()
  @Post(['ops/adjustments/:id/approve', 'console/api/adjustments/:id/approve'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'approveAdjustment',
    summary: 'Approve a request of another operator: the ledger books it (or refuses it, e.g. an overdraft)',
    description:
      "requested -> approved and the ledger's books.adjust, in one transaction. The ledger's outcome shows in `ledger` once it has read it: applied, or rejected with its reason (INSUFFICIENT_BALANCE: it would overdraw the merchant's available). 403 OWN_ADJUSTMENT for the requester; 409 ADJUSTMENT_NOT_REQUESTED once decided or expired.",
  })
  @ApiParam(ID)
  @ApiEnvelope(AdjustmentSchema, { message: 'Adjustment approved' })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.OwnAdjustment, ErrorCode.AdjustmentNotRequested])
  async approve(@Param('id') id: string, @Body() dto: ApproveAdjustmentDto, @Req() req: FastifyRequest) {
    return new Reply('Adjustment approved', adjustmentView(await this.adjustments.approve(id, dto.note, auditAs(req))));
  }

  @RequiresRecentAuth()
  @Post(['ops/adjustments/:id/reject', 'console/api/adjustments/:id/reject'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rejectAdjustment',
    summary: 'Reject a request of another operator, saying why: nothing is booked',
  })
  @ApiParam(ID)
  @ApiEnvelope(AdjustmentSchema, { message: 'Adjustment rejected' })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.OwnAdjustment, ErrorCode.AdjustmentNotRequested])
  async reject(@Param('id') id: string, @Body() dto: RejectAdjustmentDto, @Req() req: FastifyRequest) {
    return new Reply('Adjustment rejected', adjustmentView(await this.adjustments.reject(id, dto.note, auditAs(req))));
  }
}
