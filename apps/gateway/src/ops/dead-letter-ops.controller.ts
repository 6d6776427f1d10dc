import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { DeadLetterRepository, type DeadLetterStatus, deadLetterView } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AdminTokenGuard } from './admin-auth';

class ListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  topic?: string;

  @IsOptional()
  @IsIn(['open', 'replayed', 'resolved', 'all'])
  status?: DeadLetterStatus | 'all';

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

class ResolveDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  note!: string;
}

function letterId(id: string): bigint {
  if (!/^[1-9]\d{0,18}$/.test(id)) throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
  return BigInt(id);
}

/** Operators' dead-letter endpoints (also in the admin CLI: `admin dlq ...`); the runbook is in the README. */
@ApiExcludeController()
@Controller('ops/dead-letters')
@UseGuards(AdminTokenGuard)
export class DeadLetterOpsController {
  constructor(@Inject(DeadLetterRepository) private readonly letters: DeadLetterRepository) {}

  @Get()
  async list(@Query() q: ListQuery) {
    const letters = await this.letters.list({ topic: q.topic, status: q.status, limit: q.limit });
    return new Reply(`${letters.length} dead letter(s)`, letters.map((d) => deadLetterView(d)));
  }

  @Get(':id')
  async show(@Param('id') id: string) {
    const d = await this.letters.get(letterId(id));
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
    return new Reply('Dead letter found', deadLetterView(d));
  }

  @Post(':id/replay')
  @HttpCode(200)
  async replay(@Param('id') id: string) {
    const r = await this.letters.replay(letterId(id), new Date());
    switch (r.outcome) {
      case 'not-found':
        throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
      case 'not-open':
        throw new ApiError(ErrorCode.ValidationError, `Dead letter is ${r.deadLetter.status} already`);
      case 'not-json':
        throw new ApiError(ErrorCode.ValidationError, 'Dead letter value is not JSON and can never be processed; resolve it instead');
      case 'replayed':
        return new Reply('Dead letter replayed', deadLetterView(r.deadLetter));
    }
  }

  @Post(':id/resolve')
  @HttpCode(200)
  async resolve(@Param('id') id: string, @Body() dto: ResolveDto) {
    const d = await this.letters.resolve(letterId(id), dto.note, new Date());
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Open dead letter not found');
    return new Reply('Dead letter resolved', deadLetterView(d));
  }
}
