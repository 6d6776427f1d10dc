import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DeadLetterRepository, deadLetterView, OperatorAuditRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { DeadLetterListQuery } from '../../ops/dead-letter-ops.controller';
import { deadLetterId, deadLetterReplayReply } from '../../ops/operator-actions';
import { OperatorSessionGuard } from '../auth/session.guards';
import { auditEntry } from './console-audit.interceptor';
import { RequiresRecentAuth } from '../auth/requires-recent-auth.decorator';

/** Dead letters as the ops API lists and replays them (decision 0013). */
@ApiExcludeController()
@Controller('console/api/dead-letters')
@UseGuards(OperatorSessionGuard)
export class ConsoleDeadLettersController {
  constructor(
    @Inject(DeadLetterRepository) private readonly letters: DeadLetterRepository,
    @Inject(OperatorAuditRepository) private readonly audit: OperatorAuditRepository,
  ) {}

  /** Default: the open ones. */
  @Get()
  async list(@Query() q: DeadLetterListQuery) {
    const letters = await this.letters.list({ topic: q.topic, status: q.status, limit: q.limit });
    return new Reply(`${letters.length} dead letter(s)`, letters.map((d) => deadLetterView(d)));
  }

  @RequiresRecentAuth()
  @Post(':id/replay')
  @HttpCode(200)
  async replay(@Param('id') id: string, @Req() req: FastifyRequest) {
    const letterId = deadLetterId(id);
    // The audit row is written in the replay's transaction: both or neither.
    const result = await this.audit.withChange(
      (tx) => this.letters.replayIn(tx, letterId, new Date()),
      (r) => (r.outcome === 'replayed' ? auditEntry(req, 'dead-letter.replay', `dead-letter:${letterId}`) : null),
    );
    return deadLetterReplayReply(result);
  }
}
