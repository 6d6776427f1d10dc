import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InvalidMessageError, type LedgerCommand, type LedgerOutcome, parseLedgerCommand, Topic } from '@pay/contracts';
import { LedgerService } from '@pay/ledger-core';
import { type Logger, runWithLogId } from '@pay/platform';
import { LOGGER } from './ledger.tokens';

/**
 * Consumes ledger.commands (keyed by merchant, so one merchant's commands arrive in order). The
 * commands waiting on a partition come as one batch and are applied in one transaction (group
 * commit); a batch the ledger cannot apply is delivered again one command at a time by the bus,
 * which finds (and dead-letters) the one at fault.
 */
@Controller()
export class LedgerCommandsController {
  constructor(
    private readonly ledger: LedgerService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Topic.LedgerCommands, { batch: true })
  async handle(@Payload() messages: unknown[]): Promise<LedgerOutcome[]> {
    const commands = messages.map((message) => this.parse(message));
    const outcomes = await this.ledger.applyBatch(commands);
    commands.forEach((command, i) => this.logDecision(command, outcomes[i]));
    return outcomes;
  }

  private parse(message: unknown): LedgerCommand {
    try {
      return parseLedgerCommand(message);
    } catch (err) {
      // A malformed command never becomes valid: log it loudly; the transport retries and then dead-letters it.
      if (err instanceof InvalidMessageError) this.logger.error({ problems: err.problems }, 'invalid ledger command');
      throw err;
    }
  }

  private logDecision(command: LedgerCommand, outcome: LedgerOutcome): void {
    runWithLogId(command.logId ?? command.commandId, () =>
      this.logger.info(
        {
          commandId: command.commandId,
          type: command.type,
          merchantId: command.merchantId,
          outcome: outcome.outcome,
          ...(outcome.outcome === 'rejected' ? { reason: outcome.reason } : { seq: outcome.seq }),
        },
        'ledger command decided',
      ),
    );
  }
}
