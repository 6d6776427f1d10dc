import { Body, Controller, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { describeMerchant, MerchantAdmin, SettlementRequests } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsNotEmpty, IsOptional, IsPositive, IsString, MaxLength } from 'class-validator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { type DashboardPrincipal, SignedInOperator } from '../../kernel/auth/session/dashboard-principal';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { MerchantId } from '../../kernel/http/path-params';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiMerchantIdParam, ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { RateLimitsDto } from '../../kernel/dto/merchant-settings.dto';
import {
  MerchantCreatedSchema,
  MerchantDescriptionSchema,
  MerchantRateLimitsSetSchema,
  SettlementRunSchema,
} from './ops.schemas';

export class CreateMerchantDto {
  @ApiProperty({ example: 'Toko Sinar Jaya', maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;
}

export class RunSettlementDto {
  @ApiProperty({ example: 7 })
  @IsInt()
  @IsPositive()
  merchantId!: number;

  /** Settle pay-ins that succeeded before this time (default: now) */
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: '2026-11-22T01:00:00.000Z',
    description: 'Settle pay-ins that succeeded before this time (default: now; not in the future)',
  })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'cutoff must be an ISO 8601 time' })
  cutoff?: Date;
}

/**
 * Operator endpoints for onboarding and end-to-end suites run against a deployed stack: the
 * admin CLI's merchant commands and settlement run, over HTTP behind the admin token. A
 * merchant reads as `admin --json merchant show` prints it (describeMerchant). Creating a
 * merchant and running a settlement are also the console's (/console/api, an operator's
 * session, a recent password, the audit log): the same handlers (OperatorGuard).
 */
@ApiOps('Merchants')
@Controller()
@UseGuards(OperatorGuard)
export class MerchantOpsController {
  constructor(
    private readonly admin: MerchantAdmin,
    private readonly settlements: SettlementRequests,
  ) {}

  /** A merchant with default fees, one API token (returned once, labelled by the face) and its webhook secret. */
  @RequiresRecentAuth()
  @Post(['ops/merchants', 'console/api/merchants'])
  @HttpCode(201)
  @Audited('merchant.create', ({ data }) => `merchant:${String(data.merchantId)}`)
  @ApiOperation({
    operationId: 'createMerchant',
    summary: 'Create a merchant with default fees, an API token (shown only now) and its webhook secret',
  })
  @ApiEnvelope(MerchantCreatedSchema, { message: 'Merchant created', status: 201 })
  async create(@SignedInOperator() operator: DashboardPrincipal | undefined, @Body() dto: CreateMerchantDto) {
    return new Reply('Merchant created', await this.admin.onboard(dto.name, operator ? 'console' : 'ops api'));
  }

  @Get('ops/merchants')
  @ApiOperation({ operationId: 'listMerchants', summary: 'Every merchant' })
  @ApiEnvelope(MerchantDescriptionSchema, {
    message: '1 merchant(s)',
    messagePattern: '^\\d+ merchant\\(s\\)$',
    isArray: true,
  })
  async list() {
    const all = await this.admin.list();
    return new Reply(`${all.length} merchant(s)`, all.map(describeMerchant));
  }

  @Get('ops/merchants/:merchantId')
  @ApiOperation({ operationId: 'getMerchant', summary: 'One merchant' })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Merchant found' })
  async show(@MerchantId() merchantId: number) {
    return new Reply('Merchant found', describeMerchant(await this.admin.get(merchantId)));
  }

  /** An inactive merchant's every request is refused (401 MERCHANT_NOT_ACTIVE) from the next one on. */
  @Post('ops/merchants/:merchantId/activate')
  @Audited('merchant.activate', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({ operationId: 'activateMerchant', summary: 'Activate a merchant' })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Merchant activated' })
  async activate(@MerchantId() merchantId: number) {
    return new Reply('Merchant activated', describeMerchant(await this.admin.setActive(merchantId, true)));
  }

  @Post('ops/merchants/:merchantId/deactivate')
  @Audited('merchant.deactivate', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deactivateMerchant',
    summary: 'Deactivate a merchant: its every request is refused (401 MERCHANT_NOT_ACTIVE) from the next one on',
  })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Merchant deactivated' })
  async deactivate(@MerchantId() merchantId: number) {
    return new Reply('Merchant deactivated', describeMerchant(await this.admin.setActive(merchantId, false)));
  }

  /** Sets the merchant's own rate limits (README "Rate limits"); they apply from its next request. */
  @Put('ops/merchants/:merchantId/rate-limits')
  @Audited('merchant.rate-limits', ({ params }) => `merchant:${params.merchantId}`, { merchantChanges: true })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setMerchantRateLimits',
    summary: "Set the merchant's own rate limits (null: the gateway's default)",
  })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantRateLimitsSetSchema, { message: 'Rate limits set' })
  async setRateLimits(@MerchantId() merchantId: number, @Body() dto: RateLimitsDto) {
    const m = await this.admin.setRateLimits(merchantId, dto);
    return new Reply('Rate limits set', {
      merchantId: m.id,
      rateLimits: { read: m.rateLimitRead, write: m.rateLimitWrite, export: m.rateLimitExport },
    });
  }

  /** Requests the merchant's settlement for a cut-off now (default now); the ledger credits it asynchronously. */
  @RequiresRecentAuth()
  @Post(['ops/settlements/run', 'console/api/settlements/run'])
  @HttpCode(200)
  @Audited('settlement.run', ({ body }) => `merchant:${String(body.merchantId)}`)
  @ApiOperation({
    operationId: 'runSettlement',
    summary: "Request a merchant's settlement for a cut-off now (the ledger credits it asynchronously)",
  })
  @ApiEnvelope(SettlementRunSchema, { message: ['Settlement requested', 'Nothing to settle'] })
  async runSettlement(@Body() dto: RunSettlementDto) {
    const { cutoffAt, planned } = await this.settlements.request(dto.merchantId, dto.cutoff);
    return new Reply(
      planned ? 'Settlement requested' : 'Nothing to settle',
      planned ?? { merchantId: dto.merchantId, cutoffAt, payinCount: 0, requested: false },
    );
  }
}
