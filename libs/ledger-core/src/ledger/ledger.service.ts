import type { LedgerCommand, LedgerOutcome } from '@pay/contracts';
import type { Pool } from 'pg';
import { inTransaction, sql, sqlClient } from '@pay/persistence';
import { LedgerBatch } from './ledger-batch';

/**
 * The single writer of money. A batch of commands (those waiting on one bus partition) is
 * applied in one Postgres transaction of four statements, whatever its size: lock the balance
 * rows, read prior decisions and existing events, then write every event, projection, decision
 * record and outbox row in one statement (ledger-batch.ts, ledger-writes.ts). Handlers that read
 * rows of their own (pay-ins, settlements, refunds) add a write and a read each.
 */
export class LedgerService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async apply(command: LedgerCommand): Promise<LedgerOutcome> {
    const [outcome] = await this.applyBatch([command]);
    return outcome;
  }

  /**
   * Outcomes in the order of `commands`; all or nothing. A batch that fails is the caller's to
   * retry whole (a dependency away) or one command at a time (to find the one that cannot be applied).
   */
  async applyBatch(commands: LedgerCommand[]): Promise<LedgerOutcome[]> {
    if (commands.length === 0) return [];
    try {
      return await inTransaction(this.pool, (tx) => new LedgerBatch(tx, this.clock()).apply(commands), { isolation: 'READ COMMITTED', timeoutMs: 15_000 });
    } catch (err) {
      if (commands.length > 1) throw err;
      // The unique command id lost a race (e.g. a merchant without a balance row yet): the stored outcome wins.
      const prior = await this.priorOutcome(commands[0].commandId);
      if (prior) return [prior];
      throw err;
    }
  }

  private async priorOutcome(commandId: string): Promise<LedgerOutcome | null> {
    const [row] = await sqlClient(this.pool).query<{ result: LedgerOutcome }>(sql`SELECT result FROM ledger_commands WHERE command_id = ${commandId}`);
    return row?.result ?? null;
  }
}
