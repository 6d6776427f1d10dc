import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DeadLetterActions, deadLetterId } from '@pay/backoffice';
import { type DeadLetterStatus, deadLetterView } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { auditAs } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { DeadLetterSchema } from './ops.schemas';
import { Audited } from '../../kernel/audit/audit.interceptor';

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

/**
 * Operators' dead-letter endpoints (also in the admin CLI: `admin dlq ...`); the runbook is in the
 * README. The list and the replay are also the console's (/console/api/dead-letters: an
 * operator's session, a recent password, the audit row in the replay's transaction).
 */
@ApiOps('Dead letters')
@Controller()
@UseGuards(OperatorGuard)
export class DeadLetterOpsController {
  constructor(private readonly letters: DeadLetterActions) {}

  /** Default: the open ones. */
  @Get(['ops/dead-letters', 'console/api/dead-letters'])
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

  @Get('ops/dead-letters/:id')
  @ApiOperation({ operationId: 'getDeadLetter', summary: 'One dead letter' })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter found' })
  async show(@Param('id') id: string) {
    return new Reply('Dead letter found', deadLetterView(await this.letters.get(deadLetterId(id))));
  }

  @RequiresRecentAuth()
  @Post(['ops/dead-letters/:id/replay', 'console/api/dead-letters/:id/replay'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayDeadLetter',
    summary: 'Send an open dead letter back to its topic (400 when it is not open or its value is not JSON)',
  })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter replayed' })
  async replay(@Param('id') id: string, @Req() req: FastifyRequest) {
    return new Reply(
      'Dead letter replayed',
      deadLetterView(await this.letters.replayed(deadLetterId(id), auditAs(req))),
    );
  }

  @Post('ops/dead-letters/:id/resolve')
  @Audited('dead-letter.resolve', ({ params }) => `dead-letter:${params.id}`)
  @HttpCode(200)
  @ApiOperation({ operationId: 'resolveDeadLetter', summary: 'Close an open dead letter without replaying it' })
  @ApiEnvelope(DeadLetterSchema, { message: 'Dead letter resolved' })
  async resolve(@Param('id') id: string, @Body() dto: ResolveDto) {
    return new Reply('Dead letter resolved', deadLetterView(await this.letters.resolved(deadLetterId(id), dto.note)));
  }
}
