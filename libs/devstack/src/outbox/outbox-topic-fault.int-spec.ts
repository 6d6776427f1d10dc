import { randomUUID } from 'node:crypto';
import { createTopicsAndWait, KafkaTransport, OUTBOX_ID_HEADER, OutboxRelay } from '@pay/bus';
import { createPgPool, dropDatabase, PgOutboxStore } from '@pay/persistence';
import { Kafka, logLevel } from 'kafkajs';
import type { Pool } from 'pg';
import { createTestDatabase, waitFor } from '@pay/testing';
import { readTopics } from './topic-reader';

const kafkaBrokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter((b) => b.length > 0);

/**
 * One topic the broker refuses (it does not exist, and topics are not auto-created, as in
 * production) must not hold back the rows of the other topics: the relay publishes and marks
 * per topic. Real PostgreSQL outbox, real broker.
 */
(kafkaBrokers.length > 0 ? describe : describe.skip)(
  'outbox relay with one topic the broker refuses (real Kafka)',
  () => {
    let url: string;
    let pool: Pool;
    const good = `outbox-good-${randomUUID().slice(0, 8)}`;
    const missing = `outbox-missing-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      url = await createTestDatabase('pay_outbox_topics');
      pool = createPgPool(url, 4);
      const admin = new Kafka({
        brokers: kafkaBrokers,
        clientId: 'outbox-topic-fault',
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      await createTopicsAndWait(admin, [{ topic: good, numPartitions: 3, replicationFactor: 1 }]);
      await admin.disconnect();
    });
    afterAll(async () => {
      await pool.end();
      await dropDatabase(url);
      const admin = new Kafka({
        brokers: kafkaBrokers,
        clientId: 'outbox-topic-fault',
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [good] }).catch(() => undefined);
      await admin.disconnect();
    });

    const unpublished = async (topic: string) =>
      Number(
        (
          await pool.query<{ n: string }>(
            'SELECT count(*) AS n FROM outbox WHERE topic = $1 AND published_at IS NULL',
            [topic],
          )
        ).rows[0].n,
      );

    it("publishes every row of the good topic, in outbox order per key, while the missing topic's rows wait", async () => {
      // The bad topic's rows come first in the outbox, and outnumber a batch.
      const insert = (topic: string, key: string, n: number) =>
        pool.query(
          `INSERT INTO outbox (topic, key, payload) SELECT $1, $2, jsonb_build_object('n', g) FROM generate_series(1, $3::int) g`,
          [topic, key, n],
        );
      await insert(missing, 'm-1', 30);
      for (const key of ['m-1', 'm-2', 'm-3']) await insert(good, key, 10);
      const { rows } = await pool.query<{ id: string; key: string }>(
        'SELECT id::text AS id, key FROM outbox WHERE topic = $1 ORDER BY outbox.id',
        [good],
      );

      const transport = new KafkaTransport({
        brokers: kafkaBrokers,
        clientId: 'outbox-topic-fault',
        createTopics: false,
        requestTimeoutMs: 2_000,
      });
      const relay = new OutboxRelay({
        store: new PgOutboxStore(pool),
        transport,
        batchSize: 20,
        pollIntervalMs: 20,
        errorBackoff: { initialMs: 200, maxMs: 2_000 },
      });
      relay.start();
      try {
        await waitFor(async () => (await unpublished(good)) === 0, 30_000).catch(() => undefined);
        expect(await unpublished(good)).toBe(0);
        expect(await unpublished(missing)).toBe(30);
      } finally {
        await relay.stop();
        await transport.close();
      }

      const read = await readTopics(kafkaBrokers, [good]);
      expect(read.map((r) => r.headers[OUTBOX_ID_HEADER]).sort()).toEqual(rows.map((r) => r.id).sort());
      for (const key of ['m-1', 'm-2', 'm-3']) {
        expect(read.filter((r) => r.key === key).map((r) => r.headers[OUTBOX_ID_HEADER])).toEqual(
          rows.filter((r) => r.key === key).map((r) => r.id),
        );
      }
    }, 60_000);
  },
);
