import type { LedgerCommand, LedgerOutcome } from '@pay/contracts';
import type { Pool } from 'pg';
import { GroupWriter, inTransaction, sql, sqlClient } from '@pay/persistence';
import { LedgerBatch } from './ledger-batch';

export interface LedgerServiceOptions {
  /** Transactions in flight at once (default 4): each takes every batch that arrived while the others were busy. */
  parallel?: number;
  /** Commands in one transaction at most (default 200: past it, transactions in parallel apply more per second than one larger one); a larger batch still goes whole, alone. */
  maxCommands?: number;
}

/**
 * The single writer of money. Batches of commands (those waiting on one bus partition) are
 * applied in Postgres transactions of four statements, whatever their size: lock the balance
 * rows, read prior decisions and existing events, then write every event, projection, decision
 * record and outbox row in one statement (ledger-batch.ts, ledger-writes.ts). Handlers that read
 * rows of their own (pay-ins, settlements, refunds) add a write and a read each.
 * Batches that arrive together (the partitions of one bus read, each worked apart) or while
 * every transaction is busy are applied in one transaction, each batch's commands in its order
 * (different partitions never share a merchant, so nothing between them is ordered); if that
 * transaction fails, each batch is applied again alone, so a failure stays with the batch whose
 * command caused it.
 */
export class LedgerService {
  private readonly group: GroupWriter<LedgerCommand[], LedgerOutcome[]>;

  constructor(
    private readonly pool: Pool,
    private readonly clock: () => Date = () => new Date(),
    options: LedgerServiceOptions = {},
  ) {
    const maxCommands = options.maxCommands ?? 200;
    this.group = new GroupWriter(
      (batches) => this.applyTogether(batches),
      (batch) => this.applyAlone(batch),
      {
        maxBatch: 100,
        parallel: options.parallel ?? 4,
        canJoin: (batch, others) => others.reduce((n, b) => n + b.length, batch.length) <= maxCommands,
      },
    );
  }

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
    return this.group.add(commands);
  }

  /** Several callers' batches in one transaction; each gets its own outcomes back. */
  private async applyTogether(batches: LedgerCommand[][]): Promise<LedgerOutcome[][]> {
    const outcomes = await this.transaction(batches.flat());
    let at = 0;
    return batches.map((b) => outcomes.slice(at, (at += b.length)));
  }

  private async applyAlone(commands: LedgerCommand[]): Promise<LedgerOutcome[]> {
    try {
      return await this.transaction(commands);
    } catch (err) {
      if (commands.length > 1) throw err;
      // The unique command id lost a race (e.g. a merchant without a balance row yet): the stored outcome wins.
      const prior = await this.priorOutcome(commands[0].commandId);
      if (prior) return [prior];
      throw err;
    }
  }

  private transaction(commands: LedgerCommand[]): Promise<LedgerOutcome[]> {
    return inTransaction(this.pool, (tx) => new LedgerBatch(tx, this.clock()).apply(commands), {
      isolation: 'READ COMMITTED',
      timeoutMs: 15_000,
    });
  }

  private async priorOutcome(commandId: string): Promise<LedgerOutcome | null> {
    const [row] = await sqlClient(this.pool).query<{ result: LedgerOutcome }>(
      sql`SELECT result FROM ledger_commands WHERE command_id = ${commandId}`,
    );
    return row?.result ?? null;
  }
}
