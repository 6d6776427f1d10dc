import { Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DeadLetterRepository, deadLetterView } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { DeadLetterListQuery } from '../../ops/dead-letter-ops.controller';
import { replayDeadLetter } from '../../ops/operator-actions';
import { OperatorSessionGuard } from '../auth/session.guards';
import { Audited } from './console-audit.interceptor';

/** Dead letters as the ops API lists and replays them (decision 0013). */
@ApiExcludeController()
@Controller('console/api/dead-letters')
@UseGuards(OperatorSessionGuard)
export class ConsoleDeadLettersController {
  constructor(@Inject(DeadLetterRepository) private readonly letters: DeadLetterRepository) {}

  /** Default: the open ones. */
  @Get()
  async list(@Query() q: DeadLetterListQuery) {
    const letters = await this.letters.list({ topic: q.topic, status: q.status, limit: q.limit });
    return new Reply(`${letters.length} dead letter(s)`, letters.map((d) => deadLetterView(d)));
  }

  @Post(':id/replay')
  @HttpCode(200)
  @Audited('dead-letter.replay', ({ params }) => `dead-letter:${params.id}`)
  async replay(@Param('id') id: string) {
    return replayDeadLetter(this.letters, id);
  }
}
