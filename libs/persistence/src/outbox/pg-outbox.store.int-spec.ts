import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type LedgerCommand, Topic } from '@pay/contracts';
import { outboxBacklogMetric } from '@pay/platform';
import type { Pool } from 'pg';
import { Registry } from 'prom-client';
import { createPgPool, inTransaction, sqlClient } from '../client/sql';
import { applyMigrations, dropDatabase, ensureDatabase } from '../migrations/migrate';
import { PgListener } from '../client/pg-listener';
import { OUTBOX_CHANNEL, outboxChannel } from './outbox-channel';
import { enqueueLedgerCommandSql, writeOutbox } from './outbox-writer';
import { type OutboxRecord, PgOutboxStore } from './pg-outbox.store';

const MIGRATIONS_DIR = join(__dirname, '..', '..', '..', '..', 'prisma', 'migrations');
/** The class of the relays' per-topic advisory locks, as PgOutboxStore takes them. */
const RELAY_LOCK_CLASS = 0x6f757462;

describe('the pg outbox writer and PgOutboxStore (real Postgres)', () => {
  // Its own database: the relay takes every unpublished row, which must not be other suites' rows.
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${url.pathname.slice(1)}_outbox_${randomBytes(3).toString('hex')}`;
  let pool: Pool;
  let store: PgOutboxStore;

  beforeAll(async () => {
    await ensureDatabase(url.toString());
    await applyMigrations(url.toString(), MIGRATIONS_DIR);
    pool = createPgPool(url.toString(), 4);
    store = new PgOutboxStore(pool);
  });
  beforeEach(async () => {
    await pool.query('UPDATE outbox SET published_at = now() WHERE published_at IS NULL');
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url.toString());
  });

  const command = (merchantId: number, n: number): LedgerCommand => ({
    type: 'payout.refund',
    commandId: `payout.refund:test-${n}`,
    merchantId,
    logId: n % 2 ? `log-${n}` : undefined,
    issuedAt: '2026-11-22T10:00:00.000Z',
    payoutId: `p-${n}`,
    reason: 'x',
  });
  const unpublished = async () =>
    Number(
      (await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM outbox WHERE published_at IS NULL')).rows[0].n,
    );

  it('publishes committed rows once, in id order, as JSON text with their headers', async () => {
    await inTransaction(pool, async (tx) => {
      await enqueueLedgerCommandSql(tx, command(7, 1));
      await enqueueLedgerCommandSql(tx, command(8, 2));
      await writeOutbox(tx, {
        topic: Topic.PayoutEvents,
        key: '7',
        payload: { eventId: 'e-1', amount: '100', nested: { ok: true } },
        headers: { 'message-id': 'e-1' },
      });
    });
    expect(await store.pendingTopics()).toEqual([Topic.LedgerCommands, Topic.PayoutEvents].sort());
    const published: OutboxRecord[] = [];
    expect(await store.relayBatch(Topic.LedgerCommands, 10, async (rows) => void published.push(...rows))).toBe(2);
    expect(await store.pendingTopics()).toEqual([Topic.PayoutEvents]);
    expect(await store.relayBatch(Topic.PayoutEvents, 10, async (rows) => void published.push(...rows))).toBe(1);
    expect(published.map((r) => [r.topic, r.key])).toEqual([
      [Topic.LedgerCommands, '7'],
      [Topic.LedgerCommands, '8'],
      [Topic.PayoutEvents, '7'],
    ]);
    expect(typeof published[0].id).toBe('bigint');
    expect(published[1].id > published[0].id).toBe(true);
    expect(JSON.parse(published[0].payload)).toEqual({ ...command(7, 1) });
    expect(published[0].headers).toEqual({ 'message-id': 'payout.refund:test-1', 'log-id': 'log-1' });
    expect(published[1].headers).toEqual({ 'message-id': 'payout.refund:test-2' });
    expect(JSON.parse(published[2].payload)).toEqual({ eventId: 'e-1', amount: '100', nested: { ok: true } });
    expect(await store.relayBatch(Topic.LedgerCommands, 10, async () => undefined)).toBe(0);
    expect(await store.pendingTopics()).toEqual([]);
    expect(await store.unpublishedCount()).toBe(0);
  });

  it('never publishes rows of a transaction that rolled back', async () => {
    await expect(
      inTransaction(pool, async (tx) => {
        await enqueueLedgerCommandSql(tx, command(9, 3));
        throw new Error('the fact was not recorded');
      }),
    ).rejects.toThrow('the fact was not recorded');
    expect(await unpublished()).toBe(0);
  });

  it('leaves the rows unpublished when publishing fails, and sends them on the next batch', async () => {
    await enqueueLedgerCommandSql(sqlClient(pool), command(10, 4));
    await expect(
      store.relayBatch(Topic.LedgerCommands, 10, async () => Promise.reject(new Error('bus down'))),
    ).rejects.toThrow('bus down');
    expect(await unpublished()).toBe(1);
    expect(await store.relayBatch(Topic.LedgerCommands, 10, async () => undefined)).toBe(1);
    expect(await unpublished()).toBe(0);
  });

  it('gives up on a publish that hangs, releasing the lock, and sends the rows on the next batch', async () => {
    const impatient = new PgOutboxStore(pool, 200);
    await enqueueLedgerCommandSql(sqlClient(pool), command(12, 6));
    await expect(
      impatient.relayBatch(Topic.LedgerCommands, 10, () => new Promise<void>(() => undefined)),
    ).rejects.toThrow('longer than 200 ms');
    expect(await unpublished()).toBe(1);
    expect(await store.relayBatch(Topic.LedgerCommands, 10, async () => undefined)).toBe(1);
  });

  it("publishes nothing of a topic while another relay holds that topic's lock; other topics go on", async () => {
    await enqueueLedgerCommandSql(sqlClient(pool), command(11, 5));
    await writeOutbox(sqlClient(pool), {
      topic: Topic.PayoutEvents,
      key: '11',
      payload: { eventId: 'e-2' },
      headers: {},
    });
    const held = await pool.connect();
    try {
      await held.query('BEGIN');
      await held.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [RELAY_LOCK_CLASS, Topic.LedgerCommands]);
      const publish = jest.fn(async () => undefined);
      expect(await store.relayBatch(Topic.LedgerCommands, 10, publish)).toBe(0);
      expect(publish).not.toHaveBeenCalled();
      expect(await store.relayBatch(Topic.PayoutEvents, 10, async () => undefined)).toBe(1);
      await held.query('COMMIT');
    } finally {
      held.release();
    }
    expect(await store.relayBatch(Topic.LedgerCommands, 10, async () => undefined)).toBe(1);
  });

  it("reads a topic's own rows only, however long another topic's backlog (planner statistics of a mostly published table)", async () => {
    // 150,000 published rows, then 50,000 commands stuck unpublished (a topic the broker refuses) and
    // 3 payout events, analysed: the statistics describe a table of published rows.
    await pool.query(
      `INSERT INTO outbox (topic, key, payload, published_at) SELECT $1, '7', '{}', now() FROM generate_series(1, 150000)`,
      [Topic.PayoutEvents],
    );
    await pool.query(`INSERT INTO outbox (topic, key, payload) SELECT $1, '7', '{}' FROM generate_series(1, 50000)`, [
      Topic.LedgerCommands,
    ]);
    await pool.query(`INSERT INTO outbox (topic, key, payload) SELECT $1, '7', '{}' FROM generate_series(1, 3)`, [
      Topic.PayoutEvents,
    ]);
    await pool.query('ANALYZE outbox');
    // The pool's backends report what they read at their next flush, up to seconds later: all four
    // (the pool's max) flushed now, so nothing of the tests before lands between two readings below.
    const all = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    await Promise.all(all.map((c) => c.query('SELECT pg_stat_force_next_flush()')));
    all.forEach((c) => c.release());
    // One backend, so that its statistics can be flushed on demand before they are read.
    const lone = createPgPool(url.toString(), 1);
    const flush = () => lone.query('SELECT pg_stat_force_next_flush()');
    const tuplesRead = async () => {
      await flush();
      const { rows } = await pool.query<{ n: string }>(`
        SELECT pg_stat_clear_snapshot()::text,
               (SELECT sum(idx_tup_read) FROM pg_stat_user_indexes WHERE relname = 'outbox')
             + (SELECT seq_tup_read FROM pg_stat_user_tables WHERE relname = 'outbox') AS n`);
      return Number(rows[0].n);
    };
    try {
      const relay = new PgOutboxStore(lone);
      for (const [topic, expected] of [
        [Topic.PayoutEvents, 3],
        [Topic.LedgerCommands, 100],
      ] as const) {
        const before = await tuplesRead();
        expect(await relay.relayBatch(topic, 100, async () => undefined)).toBe(expected);
        // The batch's index entries and the rows it marks: a few per row, nothing of the other topic.
        expect((await tuplesRead()) - before).toBeLessThan(4 * expected + 20);
      }
    } finally {
      await lone.end();
      await pool.query('TRUNCATE outbox');
    }
  });

  it('outbox_backlog and outbox_oldest_age_seconds per topic, read at most once per cacheMs', async () => {
    const registry = new Registry();
    const warnings: object[] = [];
    outboxBacklogMetric(registry, store, {
      topics: Object.values(Topic),
      logger: { warn: (obj) => void warnings.push(obj) },
      cacheMs: 300,
    });
    const values = async (name: string) => {
      const metric = registry.getSingleMetric(name);
      if (!metric) throw new Error(`${name} not registered`);
      return Object.fromEntries((await metric.get()).values.map((v) => [v.labels.topic, v.value]));
    };
    const insert = (topic: string, n: number, ageSeconds: number) =>
      pool.query(
        `INSERT INTO outbox (topic, key, payload, created_at) SELECT $1, '7', '{}', now() - make_interval(secs => $3::float8) FROM generate_series(1, $2::int)`,
        [topic, n, ageSeconds],
      );
    await insert(Topic.PayoutEvents, 3, 120);
    await insert(Topic.PayoutEvents, 2, 5);
    await insert(Topic.LedgerCommands, 4, 30);
    await insert('ledger.replay.v9', 1, 1); // not in the known list: reported all the same

    expect(await values('outbox_backlog')).toEqual({
      [Topic.LedgerCommands]: 4,
      [Topic.LedgerEvents]: 0,
      [Topic.PayoutEvents]: 5,
      'ledger.replay.v9': 1,
    });
    const ages = await values('outbox_oldest_age_seconds');
    expect(ages[Topic.PayoutEvents]).toBeGreaterThanOrEqual(120);
    expect(ages[Topic.PayoutEvents]).toBeLessThan(130);
    expect(ages[Topic.LedgerCommands]).toBeGreaterThanOrEqual(30);
    expect(ages[Topic.LedgerCommands]).toBeLessThan(40);
    expect(ages[Topic.LedgerEvents]).toBe(0);

    // Published meanwhile: a scrape inside cacheMs answers from the last read, the next one reads again.
    await pool.query(`UPDATE outbox SET published_at = now() WHERE published_at IS NULL AND topic <> $1`, [
      Topic.PayoutEvents,
    ]);
    expect((await values('outbox_backlog'))[Topic.LedgerCommands]).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await values('outbox_backlog')).toEqual({
      [Topic.LedgerCommands]: 0,
      [Topic.LedgerEvents]: 0,
      [Topic.PayoutEvents]: 5,
      'ledger.replay.v9': 0,
    });
    expect((await values('outbox_oldest_age_seconds'))[Topic.LedgerCommands]).toBe(0);
    expect(warnings).toEqual([]);
  });
  it('a committed transaction notifies each topic it wrote once, by name; a rolled back one notifies nothing', async () => {
    const heard: string[] = [];
    const listener = new PgListener(url.toString()).listen(
      outboxChannel((topic) => void heard.push(topic ?? '(none)')),
    );
    await listener.start();
    try {
      await inTransaction(pool, async (tx) => {
        await enqueueLedgerCommandSql(tx, command(7, 10));
        await enqueueLedgerCommandSql(tx, command(8, 11));
        await writeOutbox(tx, { topic: Topic.PayoutEvents, key: '7', payload: { eventId: 'e-2' }, headers: {} });
      });
      await inTransaction(pool, async (tx) => {
        await enqueueLedgerCommandSql(tx, command(9, 12));
        throw new Error('rolled back');
      }).catch(() => undefined);
      await sqlClient(pool).execute({ text: 'SELECT pg_notify($1, $2)', values: [OUTBOX_CHANNEL, 'marker'] });
      for (let i = 0; i < 50 && !heard.includes('marker'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard.sort()).toEqual([Topic.LedgerCommands, Topic.PayoutEvents, 'marker'].sort());
    } finally {
      await listener.stop();
    }
  });
});
