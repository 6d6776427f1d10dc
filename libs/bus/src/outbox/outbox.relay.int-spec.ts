import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { delay, waitFor } from '../testing/bus-transport.contract';
import { redisHarness, RedisTestHarness } from '../testing/redis-test.harness';
import { BusTransport, IncomingRecord, OutgoingRecord } from '../transport/bus-transport.interface';
import { OutboxRow, OutboxStore } from './outbox-store.interface';
import { OUTBOX_ID_HEADER, OutboxRelay } from './outbox.relay';

const MAINTENANCE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const RELAY_LOCK = 4_242_001;

/** Minimal stand-in for the persistence library's store; same contract as OutboxStore documents. */
class PgOutboxStore implements OutboxStore {
  constructor(private readonly pool: Pool) {}

  async pendingTopics(): Promise<string[]> {
    const { rows } = await this.pool.query<{ topic: string }>(
      'SELECT DISTINCT topic FROM outbox WHERE published_at IS NULL',
    );
    return rows.map((r) => r.topic);
  }

  async relayBatch(topic: string, limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const lock = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS ok', [
        RELAY_LOCK,
        topic,
      ]);
      if (!lock.rows[0].ok) {
        await client.query('ROLLBACK');
        return 0;
      }
      const { rows } = await client.query<{
        id: string;
        topic: string;
        key: string;
        payload: string;
        headers: Record<string, string>;
      }>(
        'SELECT id, topic, key, payload, headers FROM outbox WHERE topic = $1 AND published_at IS NULL ORDER BY id LIMIT $2',
        [topic, limit],
      );
      if (rows.length > 0) {
        await publish(rows.map((r) => ({ ...r, id: BigInt(r.id) })));
        await client.query(
          'UPDATE outbox SET published_at = now(), publish_count = publish_count + 1 WHERE id = ANY($1::bigint[])',
          [rows.map((r) => r.id)],
        );
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

describe('OutboxRelay (Postgres outbox -> Redis Streams)', () => {
  const database = `bus_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let pool: Pool;
  let h: RedisTestHarness;
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    const admin = new Client({ connectionString: MAINTENANCE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    pool = new Pool({ connectionString: `postgresql://postgres@127.0.0.1:5432/${database}`, max: 6 });
    // The teardown drops the database WITH (FORCE): a connection still closing then gets a FATAL
    // from the server, which must not surface as an unhandled error of whichever test is running.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    await pool.query(`CREATE TABLE outbox (
      id bigserial PRIMARY KEY, topic text NOT NULL, key text NOT NULL, payload text NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}', published_at timestamptz, publish_count int NOT NULL DEFAULT 0)`);
  });

  afterAll(async () => {
    await pool?.end();
    const admin = new Client({ connectionString: MAINTENANCE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  beforeEach(async () => {
    h = redisHarness();
    await pool.query('TRUNCATE outbox RESTART IDENTITY');
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await h.dispose();
  });

  const insertRows = async (topic: string, keys: string[], perKey: number): Promise<void> => {
    for (let n = 0; n < perKey; n++) {
      for (const key of keys) {
        await pool.query('INSERT INTO outbox (topic, key, payload, headers) VALUES ($1, $2, $3, $4)', [
          topic,
          key,
          JSON.stringify({ key, n }),
          JSON.stringify({ 'x-log-id': `log-${key}-${n}` }),
        ]);
      }
    }
  };

  const collect = async (topic: string): Promise<IncomingRecord[]> => {
    const received: IncomingRecord[] = [];
    await h.transport().subscribe({ topic, group: 'relay-test', handler: async (r) => void received.push(r) });
    return received;
  };

  const startRelay = (transport: Pick<BusTransport, 'publish'>, batchSize = 20): OutboxRelay => {
    const relay = new OutboxRelay({
      store: new PgOutboxStore(pool),
      transport,
      batchSize,
      pollIntervalMs: 10,
      errorBackoff: { initialMs: 20, maxMs: 100 },
    });
    relays.push(relay);
    relay.start();
    return relay;
  };

  const outboxIds = (records: IncomingRecord[]): number[] => records.map((r) => Number(r.headers[OUTBOX_ID_HEADER]));

  it('publishes rows in id order per key, with their headers, and marks them published', async () => {
    const topic = h.topic('ledger.events');
    const received = await collect(topic);
    await insertRows(topic, ['m1', 'm2', 'm3'], 15);
    startRelay(h.transport());

    await waitFor('45 records', () => received.length >= 45, 10_000);
    for (const key of ['m1', 'm2', 'm3']) {
      const mine = received.filter((r) => r.key === key);
      expect(mine.map((r) => (JSON.parse(r.value) as { n: number }).n)).toEqual(
        Array.from({ length: 15 }, (_, i) => i),
      );
      expect(mine[3].headers['x-log-id']).toBe(`log-${key}-3`);
    }
    const { rows } = await pool.query<{ unpublished: string }>(
      'SELECT count(*) FILTER (WHERE published_at IS NULL) AS unpublished FROM outbox',
    );
    expect(Number(rows[0].unpublished)).toBe(0);
  });

  it('lingers only under a trickle: a commit after an idle round goes out when notified, and stop() cuts a linger short', async () => {
    const topic = h.topic('ledger.events');
    const received = await collect(topic);
    // Only notify() wakes this relay (the poll is 10 minutes), and a linger would last 10 minutes.
    const relay = new OutboxRelay({
      store: new PgOutboxStore(pool),
      transport: h.transport(),
      batchSize: 20,
      pollIntervalMs: 600_000,
      lingerMs: 600_000,
    });
    relay.start();
    await insertRows(topic, ['m1'], 1);
    relay.notify();
    await waitFor('the first row', () => received.length >= 1, 10_000);

    await insertRows(topic, ['m1'], 1);
    relay.notify(); // after a round that relayed one row: this wake-up lingers
    await relay.stop();
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox WHERE published_at IS NOT NULL');
    expect(Number(rows[0].n)).toBeGreaterThanOrEqual(1);
  });

  it('a notification naming one of its topics relays that topic at once; another topic waits for the safety-net poll', async () => {
    const mine = h.topic('ledger.events');
    const theirs = h.topic('payout.events');
    const [receivedMine, receivedTheirs] = [await collect(mine), await collect(theirs)];
    let listed = 0;
    const store = new PgOutboxStore(pool);
    // Counted once a listing has answered: rows inserted after the first one cannot be in it (on a
    // loaded machine the first listing's query may still be running when the test goes on).
    const counting: OutboxStore = {
      pendingTopics: async () => {
        const topics = await store.pendingTopics();
        listed += 1;
        return topics;
      },
      relayBatch: (t, n, p) => store.relayBatch(t, n, p),
    };
    const relay = new OutboxRelay({
      store: counting,
      transport: h.transport(),
      batchSize: 20,
      pollIntervalMs: 600_000,
      wakeTopics: [mine],
    });
    relays.push(relay);
    relay.start();
    await waitFor('the first listing', () => listed === 1, 5_000);

    await insertRows(mine, ['m1'], 2);
    await insertRows(theirs, ['m1'], 2);
    relay.notify(theirs);
    relay.notify(mine);
    await waitFor('its own topic', () => receivedMine.length === 2, 5_000);
    await delay(150);
    expect(receivedTheirs).toHaveLength(0);
    expect(listed).toBe(1); // no listing of every topic for a named one

    relay.notify(); // a notification without a topic (a reconnected LISTEN): every pending topic
    await waitFor('the other topic', () => receivedTheirs.length === 2, 5_000);
    expect(listed).toBe(2);
  });

  it('rows committed while a batch of their topic is read are relayed by the same lane right after it', async () => {
    const topic = h.topic('ledger.events');
    const received = await collect(topic);
    const bus = h.transport();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let publishes = 0;
    const gated: Pick<BusTransport, 'publish'> = {
      publish: async (t, records) => {
        if (publishes++ === 0) await gate;
        await bus.publish(t, records);
      },
    };
    const relay = new OutboxRelay({
      store: new PgOutboxStore(pool),
      transport: gated,
      batchSize: 20,
      pollIntervalMs: 600_000,
      lingerMs: 0,
      wakeTopics: [topic],
    });
    relays.push(relay);
    relay.start();
    await insertRows(topic, ['m1'], 1);
    relay.notify(topic);
    await waitFor('the first batch in publish', () => publishes === 1, 5_000);
    await insertRows(topic, ['m1'], 1);
    relay.notify(topic); // heard while the lane is busy
    release();
    await waitFor('both rows', () => received.length === 2, 5_000);
    expect(outboxIds(received)).toEqual([1, 2]);
  });

  it('with two relays running at once, publishes every row exactly once and keeps per-key order', async () => {
    const topic = h.topic('ledger.events');
    const received = await collect(topic);
    const keys = Array.from({ length: 10 }, (_, i) => `merchant-${i}`);
    startRelay(h.transport(), 15);
    startRelay(h.transport(), 15);
    await insertRows(topic, keys, 30); // written while both relays poll

    await waitFor('300 records', () => received.length >= 300, 15_000);
    await delay(150);
    const ids = outboxIds(received);
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    for (const key of keys) {
      const mine = outboxIds(received.filter((r) => r.key === key));
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
    const { rows } = await pool.query<{ max: number; unpublished: string }>(
      'SELECT max(publish_count) AS max, count(*) FILTER (WHERE published_at IS NULL) AS unpublished FROM outbox',
    );
    expect(rows[0].max).toBe(1);
    expect(Number(rows[0].unpublished)).toBe(0);
  });

  it('keeps rows unpublished when the bus refuses them, and publishes them on a later batch', async () => {
    const topic = h.topic('ledger.events');
    const received = await collect(topic);
    const bus = h.transport();
    let failuresLeft = 2;
    const flaky: Pick<BusTransport, 'publish'> = {
      publish: async (t: string, records: OutgoingRecord[]) => {
        if (failuresLeft-- > 0) throw new Error('broker unavailable');
        await bus.publish(t, records);
      },
    };
    await insertRows(topic, ['m1'], 5);
    startRelay(flaky);

    await waitFor('5 records', () => received.length >= 5, 10_000);
    expect(outboxIds(received)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a topic the bus refuses holds back no other topic, and catches up in order once the bus takes it', async () => {
    const refused = h.topic('payout.events');
    const fine = h.topic('ledger.commands');
    const [receivedRefused, receivedFine] = [await collect(refused), await collect(fine)];
    const bus = h.transport();
    let refusing = true;
    let refusals = 0;
    const picky: Pick<BusTransport, 'publish'> = {
      publish: async (t, records) => {
        if (t === refused && refusing) {
          refusals += 1;
          throw new Error(`topic ${t} does not exist`);
        }
        await bus.publish(t, records);
      },
    };
    await insertRows(refused, ['m1', 'm2'], 30); // first in the outbox, three batches' worth
    await insertRows(fine, ['m1', 'm2'], 30);
    startRelay(picky);

    await waitFor('60 records of the other topic', () => receivedFine.length >= 60, 10_000);
    expect(receivedRefused).toHaveLength(0);
    expect(refusals).toBeGreaterThan(0);
    const { rows } = await pool.query<{ topic: string; n: string }>(
      'SELECT topic, count(*) AS n FROM outbox WHERE published_at IS NULL GROUP BY topic',
    );
    expect(rows).toEqual([{ topic: refused, n: '60' }]);

    refusing = false;
    await waitFor('60 records of the refused topic', () => receivedRefused.length >= 60, 10_000);
    for (const received of [receivedRefused, receivedFine]) {
      for (const key of ['m1', 'm2']) {
        const mine = outboxIds(received.filter((r) => r.key === key));
        expect(mine).toHaveLength(30);
        expect(mine).toEqual([...mine].sort((a, b) => a - b));
      }
    }
  });

  it('stop() lets the batch in progress finish and mark its rows', async () => {
    const topic = h.topic('ledger.events');
    const bus = h.transport();
    let inPublish: () => void = () => undefined;
    const publishing = new Promise<void>((resolve) => (inPublish = resolve));
    const slow: Pick<BusTransport, 'publish'> = {
      publish: async (t, records) => {
        inPublish();
        await delay(200);
        await bus.publish(t, records);
      },
    };
    await insertRows(topic, ['m1'], 3);
    const relay = startRelay(slow);
    await publishing;
    await relay.stop();
    const { rows } = await pool.query<{ published: string }>(
      'SELECT count(*) FILTER (WHERE published_at IS NOT NULL) AS published FROM outbox',
    );
    expect(Number(rows[0].published)).toBe(3);
  });
});
