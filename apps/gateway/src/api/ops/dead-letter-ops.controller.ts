import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { DeadLetterRepository, type DeadLetterStatus, deadLetterView } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { AdminTokenGuard } from '../../kernel/auth/admin/admin-token.guard';
import { DeadLetterSchema } from './ops.schemas';
import { deadLetterId, deadLetterReplayReply } from './operator-actions';

export class DeadLetterListQuery {
  @ApiPropertyOptional({ maxLength: 200, example: 'ledger.commands', description: 'Only this topic' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  topic?: string;

  @ApiPropertyOptional({ enum: ['open', 'replayed', 'resolved', 'all'], description: 'Default: open' })
  @IsOptional()
  @IsIn(['open', 'replayed', 'resolved', 'all'])
  status?: DeadLetterStatus | 'all';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: 'Default: 100' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

class ResolveDto {
  @ApiProperty({
    maxLength: 1000,
    example: 'Credited by hand, ticket OPS-42',
    description: 'How it was handled instead',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  note!: string;
}

/** Operators' dead-letter endpoints (also in the admin CLI: `admin dlq ...`); the runbook is in the README. */
@ApiOps('Dead letters')
@Controller('ops/dead-letters')
@UseGuards(AdminTokenGuard)
export class DeadLetterOpsController {
  constructor(@Inject(DeadLetterRepository) private readonly letters: DeadLetterRepository) {}

  @Get()
  @ApiOperation({ operationId: 'listDeadLetters', summary: 'Archived dead letters, newest first' })
  @ApiEnvelope(DeadLetterSchema, {
    message: '1 dead letter(s)',
    messagePattern: '^\\d+ dead letter\\(s\\)$',
    isArray: true,
  })
  async list(@Query() q: DeadLetterListQuery) {
    const letters = await this.letters.list({ topic: q.topic, status: q.status, limit: q.limit });
    return new Reply(
      `${letters.length} dead letter(s)`,
      letters.map((d) => deadLetterView(d)),
    );
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getDeadLetter', summary: 'One dead letter' })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter found' })
  async show(@Param('id') id: string) {
    const d = await this.letters.get(deadLetterId(id));
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
    return new Reply('Dead letter found', deadLetterView(d));
  }

  @Post(':id/replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayDeadLetter',
    summary: 'Send an open dead letter back to its topic (400 when it is not open or its value is not JSON)',
  })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter replayed' })
  async replay(@Param('id') id: string) {
    return deadLetterReplayReply(await this.letters.replay(deadLetterId(id), new Date()));
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({ operationId: 'resolveDeadLetter', summary: 'Close an open dead letter without replaying it' })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter resolved' })
  async resolve(@Param('id') id: string, @Body() dto: ResolveDto) {
    const d = await this.letters.resolve(deadLetterId(id), dto.note, new Date());
    if (!d) throw new ApiError(ErrorCode.NotFound, 'Open dead letter not found');
    return new Reply('Dead letter resolved', deadLetterView(d));
  }
}
