import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { inTransaction, sql, sqlClient, type SqlClient } from '../client/sql';
import type { DeadLetter } from '../generated/prisma/client';

export type { DeadLetter };
export type DeadLetterStatus = 'open' | 'replayed' | 'resolved';

/** A record read from `<topic>.dlq`, as the archiver hands it over (the bus's DLQ headers already parsed). */
export interface ArchivedRecord {
  dlqTopic: string;
  dlqRecordId: string;
  topic: string;
  originalId: string;
  consumerGroup: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  fault: string;
  error: string;
  deliveryCount: number;
  deadLetteredAt: Date;
}

export interface DeadLetterFilter {
  topic?: string;
  /** default: open */
  status?: DeadLetterStatus | 'all';
  limit?: number;
}

export type ReplayResult =
  | { outcome: 'replayed'; deadLetter: DeadLetter }
  | { outcome: 'not-found' }
  | { outcome: 'not-open'; deadLetter: DeadLetter }
  | { outcome: 'not-json'; deadLetter: DeadLetter };

/** Headers the replayed copy does not carry: the previous failure, and the old outbox id (the relay sets a new one). */
const DROPPED_HEADER = /^x-dlq-|^x-outbox-id$/;
export const REPLAY_OF_HEADER = 'x-replay-of';

/**
 * Dead letters archived from every `<topic>.dlq` (docs/decisions/0013). Replay puts a copy of the
 * original record back on its topic through the outbox, in the same transaction that marks the
 * dead letter replayed, so a replay is published exactly once or not at all; the consumers'
 * idempotency (command ids, event ids) makes replaying something already applied harmless.
 */
export class DeadLetterRepository {
  private readonly db: SqlClient;

  constructor(private readonly pool: Pool) {
    this.db = sqlClient(pool);
  }

  /** Idempotent: the same DLQ record delivered again is archived once. Returns whether it was new. */
  async archive(r: ArchivedRecord): Promise<boolean> {
    const inserted = await this.db.execute(sql`
      INSERT INTO dead_letters (dlq_topic, dlq_record_id, topic, original_id, consumer_group, key, value, headers, fault, error, delivery_count, dead_lettered_at)
      VALUES (${r.dlqTopic}, ${r.dlqRecordId}, ${r.topic}, ${r.originalId}, ${r.consumerGroup}, ${r.key}, ${r.value}, ${JSON.stringify(r.headers)}::jsonb,
              ${r.fault}, ${r.error}, ${r.deliveryCount}, ${r.deadLetteredAt})
      ON CONFLICT (dlq_topic, dlq_record_id) DO NOTHING`);
    return inserted === 1;
  }

  async list(filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
    const status = filter.status ?? 'open';
    const rows = await this.db.query<Record<string, unknown>>(sql`
      SELECT * FROM dead_letters
       WHERE (${status}::text = 'all' OR status = ${status}::text) AND (${filter.topic ?? null}::text IS NULL OR topic = ${filter.topic ?? null}::text)
       ORDER BY id LIMIT ${Math.min(Math.max(filter.limit ?? 100, 1), 1000)}`);
    return rows.map((row) => fromRow<DeadLetter>(row));
  }

  async get(id: bigint): Promise<DeadLetter | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`SELECT * FROM dead_letters WHERE id = ${id}`);
    return row ? fromRow<DeadLetter>(row) : null;
  }

  /** Open dead letters per original topic (the workers' `dead_letters_open` gauge). */
  async countOpen(): Promise<{ topic: string; open: number }[]> {
    const rows = await this.db.query<{ topic: string; open: bigint }>(
      sql`SELECT topic, count(*) AS open FROM dead_letters WHERE status = 'open' GROUP BY topic`,
    );
    return rows.map((r) => ({ topic: r.topic, open: Number(r.open) }));
  }

  async replay(id: bigint, now: Date): Promise<ReplayResult> {
    return inTransaction(this.pool, (tx) => this.replayIn(tx, id, now));
  }

  /** replay inside the caller's transaction (the console writes its audit row in the same one). */
  async replayIn(tx: SqlClient, id: bigint, now: Date): Promise<ReplayResult> {
    const [row] = await tx.query<Record<string, unknown>>(sql`SELECT * FROM dead_letters WHERE id = ${id} FOR UPDATE`);
    if (!row) return { outcome: 'not-found' };
    const letter = fromRow<DeadLetter>(row);
    if (letter.status !== 'open') return { outcome: 'not-open', deadLetter: letter };
    // The outbox carries JSON payloads; a value that is not JSON can never be processed, so there is nothing to replay.
    if (!isJson(letter.value)) return { outcome: 'not-json', deadLetter: letter };
    const headers = Object.fromEntries(
      Object.entries(letter.headers as Record<string, string>).filter(([name]) => !DROPPED_HEADER.test(name)),
    );
    headers[REPLAY_OF_HEADER] = letter.id.toString();
    const [outbox] = await tx.query<{ id: bigint }>(sql`
      INSERT INTO outbox (topic, key, payload, headers) VALUES (${letter.topic}, ${letter.key}, ${letter.value}::jsonb, ${JSON.stringify(headers)}::jsonb)
      RETURNING id`);
    const [updated] = await tx.query<Record<string, unknown>>(sql`
      UPDATE dead_letters SET status = 'replayed', replayed_at = ${now}, replay_outbox_id = ${outbox.id} WHERE id = ${id} RETURNING *`);
    return { outcome: 'replayed', deadLetter: fromRow<DeadLetter>(updated) };
  }

  /** Closes a dead letter without replaying it (it was handled another way); the note says how. */
  async resolve(id: bigint, note: string, now: Date): Promise<DeadLetter | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`
      UPDATE dead_letters SET status = 'resolved', resolved_at = ${now}, resolution_note = ${note} WHERE id = ${id} AND status = 'open' RETURNING *`);
    return row ? fromRow<DeadLetter>(row) : null;
  }
}

/** For operators (CLI, ops API): bigint ids as strings, the value as JSON when it is JSON. */
export function deadLetterView(d: DeadLetter): Record<string, unknown> {
  return {
    ...d,
    id: d.id.toString(),
    replayOutboxId: d.replayOutboxId?.toString() ?? null,
    value: isJson(d.value) ? JSON.parse(d.value) : d.value,
  };
}

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
