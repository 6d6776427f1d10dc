import { Body, Controller, HttpCode, Inject, Param, ParseIntPipe, Post, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MerchantAdmin, MerchantNotFoundError, type PrismaClient, SettlementPlanner } from '@pay/persistence';
import { ErrorCode } from '@pay/contracts';
import { ApiError, Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsNotEmpty, IsOptional, IsPositive, IsString, Max, MaxLength } from 'class-validator';
import { PRISMA } from '../gateway.tokens';
import { AdminTokenGuard } from './admin-auth';

class CreateMerchantDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;
}

class RunSettlementDto {
  @IsInt()
  @IsPositive()
  merchantId!: number;

  /** Settle pay-ins that succeeded before this time (default: now) */
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'cutoff must be an ISO 8601 time' })
  cutoff?: Date;
}

/** A merchant's own rate limits; null goes back to the gateway's default, an absent field is left as it is. */
class RateLimitsDto {
  /** Reads per second */
  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(100_000)
  read?: number | null;

  /** Writes per second */
  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(100_000)
  write?: number | null;

  /** New recon exports per minute */
  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(100_000)
  export?: number | null;
}

/**
 * Operator endpoints for onboarding and end-to-end suites run against a deployed stack: the
 * admin CLI's merchant creation and settlement run, over HTTP behind the admin token.
 */
@ApiExcludeController()
@Controller('ops')
@UseGuards(AdminTokenGuard)
export class MerchantOpsController {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /** A merchant with default fees, one API token (returned once) and its webhook secret. */
  @Post('merchants')
  @HttpCode(201)
  async create(@Body() dto: CreateMerchantDto) {
    const admin = new MerchantAdmin(this.prisma);
    const merchant = await admin.create({ name: dto.name });
    const { token } = await admin.issueToken(merchant.id, 'ops api');
    const { secret } = await admin.webhookSecret(merchant.id);
    return new Reply('Merchant created', { merchantId: merchant.id, name: merchant.name, nmid: merchant.nmid, token, webhookSecret: secret });
  }

  /** Sets the merchant's own rate limits (README "Rate limits"); they apply from its next request. */
  @Put('merchants/:merchantId/rate-limits')
  @HttpCode(200)
  async setRateLimits(@Param('merchantId', ParseIntPipe) merchantId: number, @Body() dto: RateLimitsDto) {
    try {
      const m = await new MerchantAdmin(this.prisma).setRateLimits(merchantId, dto);
      return new Reply('Rate limits set', { merchantId: m.id, rateLimits: { read: m.rateLimitRead, write: m.rateLimitWrite, export: m.rateLimitExport } });
    } catch (err) {
      if (err instanceof MerchantNotFoundError) throw new ApiError(ErrorCode.NotFound, err.message);
      throw err;
    }
  }

  /** Requests the merchant's settlement for a cut-off now (the ledger credits it asynchronously). */
  @Post('settlements/run')
  @HttpCode(200)
  async runSettlement(@Body() dto: RunSettlementDto) {
    const cutoff = dto.cutoff ?? new Date();
    if (cutoff.getTime() > Date.now()) throw new ApiError(ErrorCode.ValidationError, 'cutoff: must not be in the future', [{ field: 'cutoff', message: 'must not be in the future' }]);
    const planned = await new SettlementPlanner(this.prisma).plan(dto.merchantId, cutoff);
    return new Reply(planned ? 'Settlement requested' : 'Nothing to settle', planned ?? { merchantId: dto.merchantId, cutoffAt: cutoff, payinCount: 0, requested: false });
  }
}
