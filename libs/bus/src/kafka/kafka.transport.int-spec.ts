import { connect, type Socket } from 'node:net';
import { TransientError } from '@pay/platform';
import { type ISocketFactory, Kafka, logLevel } from 'kafkajs';
import { delay, uniqueName, waitFor } from '../testing/bus-transport.contract';
import { kafkaHarness } from '../testing/kafka-test.harness';
import { deadLetterTopic, type IncomingRecord, type OutgoingRecord } from '../transport/bus-transport.interface';
import { busReadinessCheck } from '../health/bus-failure';
import { partitionForKey } from '../partitioner/murmur2.partitioner';
import { createTopicsAndWait } from './kafka-topics';
import { KafkaTransport } from './kafka.transport';

/**
 * The network between a producer and the broker loses answers: the broker wrote the records,
 * the producer never heard so. Sockets are kafkajs's own, with incoming data dropped while
 * `losing` is set and every socket cut when it ends (a partition that heals).
 */
function lossyNetwork() {
  const sockets = new Set<Socket>();
  const net = { losing: false };
  const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
    const socket = connect({ host, port }, onConnect);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => (event === 'data' && net.losing ? true : emit(event, ...args))) as Socket['emit'];
    return socket;
  };
  return {
    socketFactory,
    loseAnswers: () => {
      net.losing = true;
    },
    heal: () => {
      net.losing = false;
      // With an error: kafkajs notices a connection drop by 'error' or 'end', not by 'close'.
      for (const socket of sockets) socket.destroy(new Error('connection cut'));
    },
  };
}

const kafkaBrokers = process.env.KAFKA_BROKERS ?? '';
// tools/test.sh starts a broker and sets KAFKA_BROKERS; without one these show as skipped (a file without tests fails Jest).
(kafkaBrokers ? describe : describe.skip)('KafkaTransport against a real broker', () => {
  const h = kafkaHarness(kafkaBrokers.split(',').map((b) => b.trim()));
  afterEach(() => h.dispose());

  const records = (tag: string, n: number): OutgoingRecord[] => Array.from({ length: n }, (_, i) => ({ key: 'merchant-1', value: JSON.stringify({ tag, i }) }));

  async function topicContents(topic: string, expected: number): Promise<string[]> {
    const seen: IncomingRecord[] = [];
    await h.transport().subscribe({ topic, group: uniqueName('reader'), handler: async (r) => void seen.push(r) });
    await waitFor(`${expected} records on ${topic}`, () => seen.length >= expected, 20_000).catch(() => undefined);
    await delay(500); // more than expected would show up here
    return seen.map((r) => r.value);
  }

  test.each([
    ['the next send has as many records: without a new producer the broker takes them for the lost ones and drops them', 3],
    ['the next send has more records: without a new producer its sequence is out of order and the partition wedges', 5],
  ])('a send whose answer was lost, then %s', async (_title, nextCount) => {
    const topic = h.topic('kafka.lost-answer');
    const network = lossyNetwork();
    const producer = new KafkaTransport(
      { brokers: kafkaBrokers.split(','), clientId: uniqueName('lossy'), createTopics: true, partitions: 12, requestTimeoutMs: 1_000 },
      { socketFactory: network.socketFactory },
    );
    try {
      await producer.publish(topic, records('warm-up', 1)); // connected, producer id assigned, topic known

      network.loseAnswers();
      await expect(producer.publish(topic, records('lost-answer', 3))).rejects.toThrow();
      network.heal();

      // As the outbox relay does: the send failed, so it sends again (what it sends may differ).
      const next = records('next', nextCount);
      await producer.publish(topic, next);

      const contents = await topicContents(topic, 1 + 3 + nextCount);
      expect(contents.filter((v) => v.includes('"next"')).sort()).toEqual(next.map((r) => r.value).sort());
    } finally {
      network.heal();
      await producer.close();
    }
  }, 120_000);

  /** Two keys that land on different partitions of a 12-partition topic. */
  function keysOnTwoPartitions(): [string, string] {
    const first = 'merchant-a';
    for (let i = 0; ; i++) {
      const other = `merchant-b${i}`;
      if (partitionForKey(other, 12) !== partitionForKey(first, 12)) return [first, other];
    }
  }

  test('a record failing transiently for ~10 s pauses only its own partition: another partition is handled meanwhile', async () => {
    const topic = h.topic('kafka.pause');
    const [keyA, keyB] = keysOnTwoPartitions();
    const failUntil = { at: 0 };
    const handled: { key: string; value: string; at: number }[] = [];
    let attemptsA = 0;
    const consumer = h.transport();
    await consumer.subscribe({
      topic,
      group: uniqueName('pause-group'),
      handler: async (r) => {
        if (r.key === keyA) {
          attemptsA++;
          if (failUntil.at === 0) failUntil.at = Date.now() + 10_000;
          if (Date.now() < failUntil.at) throw new TransientError('database away');
        }
        handled.push({ key: r.key, value: r.value, at: Date.now() });
      },
    });
    await h.transport().publish(topic, [
      { key: keyA, value: '"a1"' },
      { key: keyA, value: '"a2"' },
    ]);
    await waitFor('partition A failing', () => attemptsA > 0, h.waitMs);
    await h.transport().publish(topic, [1, 2, 3].map((i) => ({ key: keyB, value: `"b${i}"` })));

    await waitFor('partition B handled', () => handled.filter((r) => r.key === keyB).length === 3, h.waitMs);
    const bDone = Date.now();
    expect(bDone).toBeLessThan(failUntil.at - 2_000); // B did not wait for A's outage
    expect(handled.map((r) => r.value)).toEqual(['"b1"', '"b2"', '"b3"']);

    await waitFor('partition A handled after its outage', () => handled.filter((r) => r.key === keyA).length === 2, h.waitMs);
    expect(handled.filter((r) => r.key === keyA).map((r) => r.value)).toEqual(['"a1"', '"a2"']);
    expect(handled[3].at).toBeGreaterThanOrEqual(failUntil.at);
    expect(attemptsA).toBeGreaterThan(3); // retried while paused, not given up
  }, 120_000);

  test('a consumer that crashes for good (its dead-letter write refused by the broker) is reported, not left silent', async () => {
    const topic = h.topic('kafka.crash');
    const brokers = kafkaBrokers.split(',');
    // A dead-letter topic that refuses anything above 200 bytes: the broker answers MESSAGE_TOO_LARGE, which kafkajs never retries.
    const admin = new Kafka({ brokers, clientId: uniqueName('crash-admin'), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await createTopicsAndWait(admin, [{ topic: deadLetterTopic(topic), numPartitions: 12, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '200' }] }]);
    await admin.disconnect();

    const failures: Error[] = [];
    const consumer = new KafkaTransport({ brokers, clientId: uniqueName('crashing'), createTopics: true, partitions: 12 }, { onFailure: (e) => failures.push(e) });
    const handled: string[] = [];
    try {
      await consumer.subscribe({
        topic,
        group: uniqueName('crash-group'),
        handler: async (r) => {
          handled.push(r.value);
          JSON.parse(r.value); // not JSON: permanent, dead-lettered at once
        },
      });
      expect(consumer.failure()).toBeNull();
      await h.transport().publish(topic, [{ key: 'm-1', value: `{not json ${'x'.repeat(400)}` }]);

      await waitFor('the consumer reported as failed', () => failures.length > 0, h.waitMs);
      expect(handled).toHaveLength(1);
      expect(failures).toHaveLength(1);
      expect(consumer.failure()).toBe(failures[0]);
      expect(failures[0].message).toMatch(new RegExp(`kafka consumer of ${topic} .*stopped for good`));
      // What /readyz of ledger, payout and workers asks.
      await expect(busReadinessCheck(consumer).check()).rejects.toThrow(/stopped for good/);
    } finally {
      await consumer.close();
    }
  }, 120_000);
});
