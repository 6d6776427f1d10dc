import { type LedgerCommand, Topic } from '@pay/contracts';
import type { TransactionClient } from '../client/prisma';

/**
 * Puts a ledger command in the outbox, inside the caller's transaction: the command leaves for
 * the bus only if the fact it acts on was committed (DESIGN rule 2). Keyed by merchant, so one
 * merchant's commands reach the ledger in order.
 */
export async function enqueueLedgerCommand(tx: TransactionClient, command: LedgerCommand): Promise<void> {
  await tx.outbox.create({
    data: {
      topic: Topic.LedgerCommands,
      key: String(command.merchantId),
      payload: command as object,
      headers: { 'message-id': command.commandId, ...(command.logId ? { 'log-id': command.logId } : {}) },
    },
  });
}
