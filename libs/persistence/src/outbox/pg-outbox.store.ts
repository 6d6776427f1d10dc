import type { Pool } from 'pg';
import { inTransaction, sql, sqlClient } from '../client/sql';

export interface OutboxRecord {
  id: bigint;
  topic: string;
  key: string;
  payload: string;
  headers: Record<string, string>;
}

// Any constant works; it only has to be the same for every relay instance.
const RELAY_LOCK_KEY = 0x6f7574626f78; // "outbox"

/**
 * The Postgres side of the outbox relay (libs/bus OutboxRelay). A transaction-scoped advisory
 * lock lets exactly one relay publish at a time, which keeps each key's events in id order
 * even with several ledger replicas; the others find the lock taken and wait for the next tick.
 * Plain pg: every relay polls this several times a second (docs/decisions/0011).
 */
export class PgOutboxStore {
  constructor(
    private readonly pool: Pool,
    private readonly publishTimeoutMs = 30_000,
  ) {}

  async relayBatch(limit: number, publish: (rows: OutboxRecord[]) => Promise<void>): Promise<number> {
    // An idle poll costs one cheap statement (index-only on the partial index), not a transaction.
    const [{ pending }] = await sqlClient(this.pool).query<{ pending: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM outbox WHERE published_at IS NULL) AS pending`);
    if (!pending) return 0;
    return inTransaction(
      this.pool,
      async (tx) => {
        // The lock and the batch in one round trip: no rows when another relay holds the lock.
        const rows = await tx.query<{ id: bigint; topic: string; key: string; payload: unknown; headers: unknown }>(sql`
          SELECT id, topic, key, payload, headers FROM outbox
           WHERE (SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}::bigint)) AND published_at IS NULL
           ORDER BY id LIMIT ${limit}`);
        if (rows.length === 0) return 0;
        // A publish that hangs must not hold the relay lock for ever: give up, roll back, retry later.
        await withTimeout(
          publish(
            rows.map((r) => ({
              id: r.id,
              topic: r.topic,
              key: r.key,
              payload: JSON.stringify(r.payload),
              headers: (r.headers ?? {}) as Record<string, string>,
            })),
          ),
          this.publishTimeoutMs,
        );
        const ids = rows.map((r) => r.id);
        await tx.execute(sql`UPDATE outbox SET published_at = now() WHERE id = ANY(${ids}::bigint[])`);
        return rows.length;
      },
      { timeoutMs: this.publishTimeoutMs },
    );
  }

  async unpublishedCount(): Promise<number> {
    const [{ n }] = await sqlClient(this.pool).query<{ n: bigint }>(sql`SELECT COUNT(*)::bigint AS n FROM outbox WHERE published_at IS NULL`);
    return Number(n);
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`outbox publish took longer than ${ms} ms; the batch is rolled back and retried`)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
