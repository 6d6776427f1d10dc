import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaTransport, OUTBOX_ID_HEADER, OutboxRelay, type OutgoingRecord } from '@pay/bus';
import { Topic } from '@pay/contracts';
import { createPgPool, dropDatabase, PgOutboxStore } from '@pay/persistence';
import type { Pool } from 'pg';
import { faultyNetwork } from '../infra/faulty-network';
import { KafkaBroker } from '../infra/kafka-broker';
import { createTestDatabase, waitFor } from '@pay/testing';
import { readTopics } from './topic-reader';

const TOPICS = Object.values(Topic);
const KEYS = Array.from({ length: 24 }, (_, i) => `merchant-${i + 1}`);
const CHUNKS = 30;
const PER_CHUNK = 100; // 3,000 rows in all

/**
 * Outbox rows = topic contents, on a real broker of its own, while the producer's answers are
 * lost (the broker wrote, the relay never heard so) and while the broker restarts: every row is
 * on its topic at least once, nothing else is, and each key's first appearances are in outbox
 * order. A row may appear twice only if a send that carried it failed.
 * Runs where the test command has Kafka (KAFKA_BROKERS set), but on a broker of its own: it is restarted.
 */
(process.env.KAFKA_BROKERS ? describe : describe.skip)(
  'outbox -> Kafka under lost answers and a broker restart (real broker, real PostgreSQL)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-outbox-'));
    let broker: KafkaBroker;
    let url: string;
    let pool: Pool;

    beforeAll(async () => {
      [broker, url] = await Promise.all([
        KafkaBroker.start({ dir, heapMb: 512 }),
        createTestDatabase('pay_outbox_kafka'),
      ]);
      pool = createPgPool(url, 6);
    }, 120_000);
    afterAll(async () => {
      await pool?.end();
      if (url) await dropDatabase(url);
      await broker?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('every outbox row reaches its topic, in order per key, duplicates only from failed sends', async () => {
      const network = faultyNetwork();
      const kafka = new KafkaTransport(
        { brokers: [broker.brokers], clientId: 'outbox-faults', createTopics: false, requestTimeoutMs: 1_500 },
        { socketFactory: network.socketFactory },
      );
      const failedIds = new Set<string>();
      let failedSends = 0;
      const transport = {
        publish: async (topic: string, records: OutgoingRecord[]) => {
          try {
            await kafka.publish(topic, records);
          } catch (error) {
            failedSends += 1;
            for (const r of records) failedIds.add(r.headers?.[OUTBOX_ID_HEADER] ?? '');
            throw error;
          }
        },
      };
      const relay = new OutboxRelay({
        store: new PgOutboxStore(pool),
        transport,
        batchSize: 50,
        pollIntervalMs: 20,
        errorBackoff: { initialMs: 100, maxMs: 1_000 },
      });
      relay.start();
      try {
        // The services keep writing while the bus is in trouble: rows arrive in chunks, the faults strike mid-way.
        for (let chunk = 0; chunk < CHUNKS; chunk++) {
          await pool.query(
            `INSERT INTO outbox (topic, key, payload)
           SELECT ($1::text[])[1 + (g * 7 + $3) % 3], ($2::text[])[1 + (g * 13 + $3) % ${KEYS.length}], jsonb_build_object('chunk', $3::int, 'n', g)
             FROM generate_series(1, ${PER_CHUNK}) g`,
            [TOPICS, KEYS, chunk],
          );
          if (chunk === 8) {
            network.blackhole();
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            network.cut();
          }
          if (chunk === 18) await broker.restart({ crash: true });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const unpublished = async () =>
          Number(
            (await pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL')).rows[0].n,
          );
        await waitFor(async () => (await unpublished()) === 0, 60_000, 'every outbox row published');
      } finally {
        await relay.stop();
        await kafka.close();
      }

      const { rows } = await pool.query<{ id: string; topic: string; key: string }>(
        'SELECT id::text AS id, topic, key FROM outbox ORDER BY outbox.id',
      );
      expect(rows).toHaveLength(CHUNKS * PER_CHUNK);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const read = await readTopics([broker.brokers], TOPICS);

      // Nothing that was not an outbox row, each on its own topic with its own key.
      const strays = read.filter(
        (r) =>
          byId.get(r.headers[OUTBOX_ID_HEADER])?.topic !== r.topic ||
          byId.get(r.headers[OUTBOX_ID_HEADER])?.key !== r.key,
      );
      expect(strays).toEqual([]);
      // Every row at least once.
      const seen = new Map<string, number>();
      for (const r of read) seen.set(r.headers[OUTBOX_ID_HEADER], (seen.get(r.headers[OUTBOX_ID_HEADER]) ?? 0) + 1);
      expect(rows.filter((r) => !seen.has(r.id)).map((r) => r.id)).toEqual([]);
      // Twice only where a send failed.
      const duplicated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      expect(duplicated.filter((id) => !failedIds.has(id))).toEqual([]);
      // Per key, first appearances (a key lives on one partition, read in log order) = outbox order.
      for (const topic of TOPICS) {
        for (const key of KEYS) {
          const firsts = [
            ...new Set(read.filter((r) => r.topic === topic && r.key === key).map((r) => r.headers[OUTBOX_ID_HEADER])),
          ];
          expect({ topic, key, ids: firsts }).toEqual({
            topic,
            key,
            ids: rows.filter((r) => r.topic === topic && r.key === key).map((r) => r.id),
          });
        }
      }
      // The faults did strike: sends failed, and what the lost answers had written came again.
      expect(failedSends).toBeGreaterThan(0);
      console.info(
        `outbox -> kafka: ${rows.length} rows, ${read.length} records read, ${duplicated.length} duplicated, ${failedSends} failed sends carrying ${failedIds.size} rows`,
      );
    }, 90_000);
  },
);
