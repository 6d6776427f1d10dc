import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Optional,
  Post,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { type SandboxClock, SandboxClockRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';

/** The furthest one advance goes: 30 days (a T+n settlement and the whole callback schedule fit many times over). */
export const MAX_ADVANCE_SECONDS = 30 * 86_400;

export class AdvanceSandboxClockDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 259_200,
    minimum: 1,
    maximum: MAX_ADVANCE_SECONDS,
    description: 'How far to move the clock ahead, in seconds (3 days: 259200). Send this or `to`, not both',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ADVANCE_SECONDS)
  seconds?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-12-01T03:00:00.000Z',
    description: "Where to move the clock: after the clock's time, at most 30 days after it. Send this or `seconds`",
  })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  to?: string;
}

@ApiSchema({ name: 'SandboxClock' })
export class SandboxClockSchema {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-25T03:00:00.000Z',
    description:
      "The clock's time: what your sandbox objects' due times (QR expiry, settlement, callback retries) are read against",
  })
  now!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T03:00:00.000Z', description: 'Real time, for comparison' })
  realTime!: string;
  @ApiProperty({
    example: 259_200,
    description: 'How far the clock is ahead of real time, in whole seconds (0: on real time)',
  })
  aheadSeconds!: number;
  @ApiProperty({
    enum: ['ready', 'advancing'],
    example: 'ready',
    description: 'advancing: an advance is being walked (`now` moves step by step to `advancingTo`); ready: it is done',
  })
  status!: 'ready' | 'advancing';
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'Where the advance under way ends; null when ready',
  })
  advancingTo!: string | null;
}

function present(clock: SandboxClock | null, realNow: Date) {
  const now = clock && clock.frozenAt > realNow ? clock.frozenAt : realNow;
  return {
    now: now.toISOString(),
    realTime: realNow.toISOString(),
    aheadSeconds: Math.floor((now.getTime() - realNow.getTime()) / 1000),
    status: clock?.advancingTo ? ('advancing' as const) : ('ready' as const),
    advancingTo: clock?.advancingTo?.toISOString() ?? null,
  };
}

const invalid = (field: string, message: string) =>
  new ApiError(ErrorCode.ValidationError, `${field}: ${message}`, [{ field, message }]);

const ADVANCING = 'The sandbox clock is still advancing; wait until GET /api/v1/sandbox/clock says ready';

/**
 * The sandbox clock (issue 45, part 4; docs/merchant-api.md#sandbox-clock): in SANDBOX_MODE only
 * (404 NOT_FOUND elsewhere), each merchant's time can be moved ahead, and the workers fire what
 * falls due for that merchant on the way: settlements at their Jakarta cut-off, QR expiries,
 * callback retries. One clock per merchant, on real time until advanced.
 */
@ApiMerchant('Sandbox')
@Controller('api/v1/sandbox/clock')
@UseGuards(MerchantAuthGuard)
export class SandboxClockController {
  constructor(@Optional() @Inject(SandboxClockRepository) private readonly clocks: SandboxClockRepository | null) {}

  private sandbox(): SandboxClockRepository {
    if (!this.clocks) throw new NotFoundException();
    return this.clocks;
  }

  @Get()
  @RequiresScope('payins:read')
  @RateLimit('read')
  @ApiOperation({
    operationId: 'getSandboxClock',
    summary: "Sandbox only: the merchant's sandbox clock (its time, how far ahead, whether an advance is under way)",
    description: 'Absent (404 NOT_FOUND) when SANDBOX_MODE is off. A merchant that never advanced it is on real time.',
  })
  @ApiEnvelope(SandboxClockSchema, { message: 'Query success' })
  @ApiErrors(ErrorCode.NotFound)
  async get(@Req() req: AuthenticatedRequest) {
    const clock = await this.sandbox().get(req.merchant.id);
    return new Reply('Query success', present(clock, new Date()));
  }

  @Post('advance')
  @RequiresScope('payins:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'advanceSandboxClock',
    summary:
      "Sandbox only: move the merchant's clock ahead; its due settlements, QR expiries and callback retries fire",
    description:
      "Absent (404 NOT_FOUND) when SANDBOX_MODE is off. Accepted at once (status advancing); the workers walk the clock to the target, stopping at each instant something of yours falls due and firing it there: a pending code expires, a settlement is credited at its T+n Jakarta cut-off (pending to available, as every settlement), a callback is attempted (recorded at that time, its next retry scheduled from it). Poll GET /api/v1/sandbox/clock until ready. Other merchants and real time are untouched. Send `seconds` or `to` (after the clock's time, at most 30 days ahead), not both: else 400 VALIDATION_ERROR naming the field; an advance while one is under way is 409 CONFLICT.",
  })
  @ApiBody({ type: AdvanceSandboxClockDto })
  @ApiEnvelope(SandboxClockSchema, { message: 'Clock advancing' })
  @ApiErrors(ErrorCode.NotFound, ErrorCode.Conflict)
  async advance(@Req() req: AuthenticatedRequest, @Body() dto: AdvanceSandboxClockDto) {
    const clocks = this.sandbox();
    if ((dto.seconds === undefined) === (dto.to === undefined))
      throw invalid(dto.to === undefined ? 'seconds' : 'to', 'send seconds or to, exactly one');
    const realNow = new Date();
    const target = (from: Date) =>
      dto.to !== undefined ? new Date(dto.to) : new Date(from.getTime() + (dto.seconds as number) * 1000);
    let tooFar = false;
    const advanced = await clocks.requestAdvance(
      req.merchant.id,
      (from) => {
        const to = target(from);
        tooFar = to.getTime() - from.getTime() > MAX_ADVANCE_SECONDS * 1000;
        // Too far: answered as not after the clock, so nothing is written; told apart below.
        return tooFar ? from : to;
      },
      realNow,
    );
    if (advanced === 'advancing') throw new ApiError(ErrorCode.Conflict, ADVANCING);
    if (advanced === 'behind')
      throw invalid('to', tooFar ? 'must be at most 30 days after the clock' : "must be after the clock's time");
    return new Reply('Clock advancing', present(advanced, realNow));
  }

  @Delete()
  @RequiresScope('payins:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'resetSandboxClock',
    summary: "Sandbox only: put the merchant back on real time (the clock's advances undone for what comes next)",
    description:
      'Absent (404 NOT_FOUND) when SANDBOX_MODE is off. What was scheduled ahead on the clock (a retry, an expiry) then waits for real time to reach it. Refused while an advance is under way (409 CONFLICT).',
  })
  @ApiEnvelope(SandboxClockSchema, { message: 'Clock reset' })
  @ApiErrors(ErrorCode.NotFound, ErrorCode.Conflict)
  async reset(@Req() req: AuthenticatedRequest) {
    if ((await this.sandbox().reset(req.merchant.id)) === 'advancing')
      throw new ApiError(ErrorCode.Conflict, ADVANCING);
    return new Reply('Clock reset', present(null, new Date()));
  }
}
