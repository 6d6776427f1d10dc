import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ConsoleDeadLetterView } from '@pay/contracts/dashboard';
import { DeadLetterRepository, AuditLogRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { DeadLetterListQuery } from '../ops/dead-letter-ops.controller';
import { deadLetterId, deadLetterReplayReply } from '../ops/operator-actions';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { auditEntry } from '../../kernel/audit/audit.interceptor';
import { presentDeadLetter } from './console.presenter';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

/** Dead letters as the ops API lists and replays them (decision 0013). */
@ApiExcludeController()
@Controller('console/api/dead-letters')
@UseGuards(OperatorSessionGuard)
export class ConsoleDeadLettersController {
  constructor(
    @Inject(DeadLetterRepository) private readonly letters: DeadLetterRepository,
    @Inject(AuditLogRepository) private readonly audit: AuditLogRepository,
  ) {}

  /** Default: the open ones. */
  @Get()
  async list(@Query() q: DeadLetterListQuery): Promise<Reply<ConsoleDeadLetterView[]>> {
    const letters = await this.letters.list({ topic: q.topic, status: q.status, limit: q.limit });
    return new Reply(`${letters.length} dead letter(s)`, letters.map(presentDeadLetter));
  }

  @RequiresRecentAuth()
  @Post(':id/replay')
  @HttpCode(200)
  async replay(@Param('id') id: string, @Req() req: FastifyRequest): Promise<Reply<ConsoleDeadLetterView>> {
    const letterId = deadLetterId(id);
    // The audit row is written in the replay's transaction: both or neither.
    const result = await this.audit.withChange(
      (tx) => this.letters.replayIn(tx, letterId, new Date()),
      (r) => (r.outcome === 'replayed' ? auditEntry(req, 'dead-letter.replay', `dead-letter:${letterId}`) : null),
    );
    // The ops API's refusals (404, 400) are thrown here; what is left was replayed.
    const { message } = deadLetterReplayReply(result);
    if (result.outcome !== 'replayed') throw new Error(`unreachable: a ${result.outcome} replay was answered`);
    return new Reply(message, presentDeadLetter(result.deadLetter));
  }
}
