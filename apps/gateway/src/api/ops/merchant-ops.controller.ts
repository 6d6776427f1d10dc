import { Body, Controller, Get, HttpCode, Inject, Post, Put, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { describeMerchant, MerchantAdmin, type PrismaClient } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsNotEmpty, IsOptional, IsPositive, IsString, MaxLength } from 'class-validator';
import { PRISMA } from '../../gateway.tokens';
import { onboardMerchant, requestSettlement } from './operator-actions';
import { AdminErrorsInterceptor, MerchantId } from '../../kernel/http/admin-errors';
import { AdminTokenGuard } from '../../kernel/auth/admin/admin-token.guard';
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
 * merchant reads as `admin --json merchant show` prints it (describeMerchant).
 */
@ApiOps('Merchants')
@Controller('ops')
@UseGuards(AdminTokenGuard)
@UseInterceptors(AdminErrorsInterceptor)
export class MerchantOpsController {
  private readonly admin: MerchantAdmin;

  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {
    this.admin = new MerchantAdmin(prisma);
  }

  /** A merchant with default fees, one API token (returned once) and its webhook secret. */
  @Post('merchants')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createMerchant',
    summary: 'Create a merchant with default fees, an API token (shown only now) and its webhook secret',
  })
  @ApiEnvelope(MerchantCreatedSchema, { message: 'Merchant created', status: 201 })
  async create(@Body() dto: CreateMerchantDto) {
    return onboardMerchant(this.admin, dto.name, 'ops api');
  }

  @Get('merchants')
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

  @Get('merchants/:merchantId')
  @ApiOperation({ operationId: 'getMerchant', summary: 'One merchant' })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Merchant found' })
  async show(@MerchantId() merchantId: number) {
    return new Reply('Merchant found', describeMerchant(await this.admin.get(merchantId)));
  }

  /** An inactive merchant's every request is refused (401 MERCHANT_NOT_ACTIVE) from the next one on. */
  @Post('merchants/:merchantId/activate')
  @HttpCode(200)
  @ApiOperation({ operationId: 'activateMerchant', summary: 'Activate a merchant' })
  @ApiMerchantIdParam()
  @ApiEnvelope(MerchantDescriptionSchema, { message: 'Merchant activated' })
  async activate(@MerchantId() merchantId: number) {
    return new Reply('Merchant activated', describeMerchant(await this.admin.setActive(merchantId, true)));
  }

  @Post('merchants/:merchantId/deactivate')
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
  @Put('merchants/:merchantId/rate-limits')
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

  /** Requests the merchant's settlement for a cut-off now (the ledger credits it asynchronously). */
  @Post('settlements/run')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'runSettlement',
    summary: "Request a merchant's settlement for a cut-off now (the ledger credits it asynchronously)",
  })
  @ApiEnvelope(SettlementRunSchema, { message: ['Settlement requested', 'Nothing to settle'] })
  async runSettlement(@Body() dto: RunSettlementDto) {
    return requestSettlement(this.prisma, dto.merchantId, dto.cutoff);
  }
}
