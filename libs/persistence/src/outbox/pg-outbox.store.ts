import { withTimeout } from '@pay/platform';
import type { Pool } from 'pg';
import { inTransaction, sql, sqlClient } from '../client/sql';

export interface OutboxRecord {
  id: bigint;
  topic: string;
  key: string;
  payload: string;
  headers: Record<string, string>;
}

export interface OutboxTopicBacklog {
  topic: string;
  rows: number;
  oldestAgeSeconds: number;
}

/** Class of the relays' per-topic advisory locks (two-key form: this, hashtext(topic)); any constant works. */
const RELAY_LOCK_CLASS = 0x6f757462; // "outb"

/**
 * The Postgres side of the outbox relay (libs/bus OutboxRelay). A transaction-scoped advisory
 * lock per topic lets exactly one relay publish a topic at a time, which keeps each key's events
 * in id order even with several replicas; the others find the lock taken and wait for the next
 * tick. Topics are apart so that one the broker refuses holds back no other.
 * Plain pg: every relay polls this several times a second (docs/decisions/0011).
 */
export class PgOutboxStore {
  constructor(
    private readonly pool: Pool,
    private readonly publishTimeoutMs = 30_000,
  ) {}

  /** A skip scan over outbox_unpublished_topic_idx: one index probe per topic, however long the backlog. */
  async pendingTopics(): Promise<string[]> {
    const rows = await sqlClient(this.pool).query<{ topic: string }>(sql`
      WITH RECURSIVE t(topic) AS (
        (SELECT topic FROM outbox WHERE published_at IS NULL ORDER BY topic LIMIT 1)
        UNION ALL
        SELECT (SELECT o.topic FROM outbox o WHERE o.published_at IS NULL AND o.topic > t.topic ORDER BY o.topic LIMIT 1)
          FROM t WHERE t.topic IS NOT NULL
      )
      SELECT topic FROM t WHERE topic IS NOT NULL`);
    return rows.map((r) => r.topic);
  }

  /**
   * One transaction, three round trips: BEGIN; the lock, the batch and its marking in one
   * statement (marked rows stay unpublished to everyone else until COMMIT, and a failed publish
   * rolls the marking back); publish; COMMIT.
   */
  async relayBatch(topic: string, limit: number, publish: (rows: OutboxRecord[]) => Promise<void>): Promise<number> {
    return inTransaction(
      this.pool,
      async (tx) => {
        // No rows when another relay holds this topic's lock.
        // The topic as a range of (topic, id), ordered by both: only outbox_unpublished_topic_idx
        // gives that order, so the plan reads this topic's rows and no other's. With `topic = $1
        // ORDER BY id` the planner may walk all unpublished rows in id order and filter by topic,
        // reading a stuck topic's whole backlog on every batch (docs/performance/journal.md).
        // The payload as text: published as it is, never parsed into objects and serialised again.
        const rows = await tx.query<{ id: bigint; topic: string; key: string; payload: string; headers: unknown }>(sql`
          UPDATE outbox SET published_at = now()
           WHERE id IN (
             SELECT id FROM outbox
              WHERE (SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_CLASS}::int, hashtext(${topic}::text)))
                AND (topic, id) >= (${topic}::text, 0::bigint)
                AND (topic, id) <= (${topic}::text, 9223372036854775807)
                AND published_at IS NULL
              ORDER BY topic, id LIMIT ${limit})
          RETURNING id, topic, key, payload::text AS payload, headers`);
        if (rows.length === 0) return 0;
        // RETURNING has no order: publish in id order (so in order per key).
        rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        // A publish that hangs must not hold the topic's lock for ever: give up, roll back, retry later.
        await withTimeout(
          publish(
            rows.map((r) => ({
              id: r.id,
              topic: r.topic,
              key: r.key,
              payload: r.payload,
              headers: (r.headers ?? {}) as Record<string, string>,
            })),
          ),
          this.publishTimeoutMs,
          `outbox publish took longer than ${this.publishTimeoutMs} ms; the batch is rolled back and retried`,
        );
        return rows.length;
      },
      { timeoutMs: this.publishTimeoutMs },
    );
  }

  /** Unpublished rows and the age of the oldest, per topic (only topics with a backlog); reads the partial index only. */
  async backlog(): Promise<OutboxTopicBacklog[]> {
    const rows = await sqlClient(this.pool).query<{ topic: string; n: bigint; age: number }>(sql`
      SELECT topic, count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
        FROM outbox WHERE published_at IS NULL GROUP BY topic`);
    return rows.map((r) => ({ topic: r.topic, rows: Number(r.n), oldestAgeSeconds: Math.max(0, r.age) }));
  }

  async unpublishedCount(): Promise<number> {
    const [{ n }] = await sqlClient(this.pool).query<{ n: bigint }>(
      sql`SELECT COUNT(*)::bigint AS n FROM outbox WHERE published_at IS NULL`,
    );
    return Number(n);
  }
}
