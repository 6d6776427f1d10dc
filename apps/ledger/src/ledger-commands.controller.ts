import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InvalidMessageError, type LedgerOutcome, parseLedgerCommand, Topic } from '@pay/contracts';
import { LedgerService } from '@pay/ledger-core';
import { type Logger, runWithLogId } from '@pay/platform';

export const LOGGER = Symbol('LOGGER');

/** Consumes ledger.commands (keyed by merchant, so one merchant's commands arrive in order). */
@Controller()
export class LedgerCommandsController {
  constructor(
    private readonly ledger: LedgerService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Topic.LedgerCommands)
  async handle(@Payload() message: unknown): Promise<LedgerOutcome> {
    let command;
    try {
      command = parseLedgerCommand(message);
    } catch (err) {
      // A malformed command never becomes valid: log it loudly; the transport retries and then dead-letters it.
      if (err instanceof InvalidMessageError) this.logger.error({ problems: err.problems }, 'invalid ledger command');
      throw err;
    }
    const logId = command.logId ?? command.commandId;
    return runWithLogId(logId, async () => {
      const outcome = await this.ledger.apply(command);
      this.logger.info(
        { commandId: command.commandId, type: command.type, merchantId: command.merchantId, outcome: outcome.outcome, ...(outcome.outcome === 'rejected' ? { reason: outcome.reason } : { seq: outcome.seq }) },
        'ledger command decided',
      );
      return outcome;
    });
  }
}
