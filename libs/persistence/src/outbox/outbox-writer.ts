import { type LedgerCommand, Topic } from '@pay/contracts';
import type { TransactionClient } from '../client/prisma';
import { sql, type SqlClient } from '../client/sql';

/** One outbox row as written: the relay publishes `payload` (as JSON text) to `topic`, keyed by `key`. */
export interface OutboxMessage {
  topic: string;
  key: string;
  payload: object;
  headers: Record<string, string>;
}

/** The bus headers of an outbox row: its message id (consumers deduplicate on it) and the log id it carries on. */
export function outboxHeaders(messageId: string, logId: string | null | undefined): Record<string, string> {
  return { 'message-id': messageId, ...(logId ? { 'log-id': logId } : {}) };
}

/** A ledger command as an outbox row. Keyed by merchant, so one merchant's commands reach the ledger in order. */
export function ledgerCommandMessage(command: LedgerCommand): OutboxMessage {
  return {
    topic: Topic.LedgerCommands,
    key: String(command.merchantId),
    payload: command,
    headers: outboxHeaders(command.commandId, command.logId),
  };
}

/**
 * Puts a ledger command in the outbox, inside the caller's transaction: the command leaves for
 * the bus only if the fact it acts on was committed (DESIGN rule 2).
 */
export async function enqueueLedgerCommand(tx: TransactionClient, command: LedgerCommand): Promise<void> {
  const { topic, key, payload, headers } = ledgerCommandMessage(command);
  await tx.outbox.create({ data: { topic, key, payload, headers } });
}

/** The same, on a plain pg transaction (inTransaction). */
export async function enqueueLedgerCommandSql(tx: SqlClient, command: LedgerCommand): Promise<void> {
  await writeOutbox(tx, ledgerCommandMessage(command));
}

/** Writes one outbox row on a plain pg transaction; it is published only if that transaction commits. */
export async function writeOutbox(tx: SqlClient, m: OutboxMessage): Promise<void> {
  await tx.execute(
    sql`INSERT INTO outbox (topic, key, payload, headers) VALUES (${m.topic}, ${m.key}, ${JSON.stringify(m.payload)}::jsonb, ${JSON.stringify(m.headers)}::jsonb)`,
  );
}
