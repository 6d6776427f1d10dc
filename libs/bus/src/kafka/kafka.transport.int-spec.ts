import { createHook } from 'node:async_hooks';
import { connect, createServer, type Socket } from 'node:net';
import { TransientError } from '@pay/platform';
import { type ISocketFactory, Kafka, logLevel } from 'kafkajs';
import { delay, uniqueName, waitFor } from '../testing/bus-transport.contract';
import { kafkaHarness } from '../testing/kafka-test.harness';
import {
  deadLetterTopic,
  DLQ_HEADERS,
  type IncomingRecord,
  type OutgoingRecord,
} from '../transport/bus-transport.interface';
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
    socket.emit = ((event: string | symbol, ...args: unknown[]) =>
      event === 'data' && net.losing ? true : emit(event, ...args)) as Socket['emit'];
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

/** kafkajs's sockets, counting the Fetch requests written (each request: int32 size, int16 api key 1, ...). */
function fetchCounter() {
  const counter = { fetches: 0 };
  const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
    const socket = connect({ host, port }, onConnect);
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (Buffer.isBuffer(chunk) && chunk.length >= 6 && chunk.readInt16BE(4) === FETCH_API_KEY) counter.fetches++;
      return write(chunk, ...rest);
    }) as Socket['write'];
    return socket;
  };
  return { socketFactory, counter };
}
const FETCH_API_KEY = 1;

const kafkaBrokers = process.env.KAFKA_BROKERS ?? '';
// tools/test.sh starts a broker and sets KAFKA_BROKERS; without one these show as skipped (a file without tests fails Jest).
(kafkaBrokers ? describe : describe.skip)('KafkaTransport against a real broker', () => {
  const h = kafkaHarness(kafkaBrokers.split(',').map((b) => b.trim()));
  afterEach(() => h.dispose());

  const records = (tag: string, n: number): OutgoingRecord[] =>
    Array.from({ length: n }, (_, i) => ({ key: 'merchant-1', value: JSON.stringify({ tag, i }) }));

  async function topicContents(topic: string, expected: number): Promise<string[]> {
    const seen: IncomingRecord[] = [];
    await h.transport().subscribe({ topic, group: uniqueName('reader'), handler: async (r) => void seen.push(r) });
    await waitFor(`${expected} records on ${topic}`, () => seen.length >= expected, 20_000).catch(() => undefined);
    await delay(500); // more than expected would show up here
    return seen.map((r) => r.value);
  }

  test.each([
    [
      'the next send has as many records: without a new producer the broker takes them for the lost ones and drops them',
      3,
    ],
    ['the next send has more records: without a new producer its sequence is out of order and the partition wedges', 5],
  ])(
    'a send whose answer was lost, then %s',
    async (_title, nextCount) => {
      const topic = h.topic('kafka.lost-answer');
      const network = lossyNetwork();
      const producer = new KafkaTransport(
        {
          brokers: kafkaBrokers.split(','),
          clientId: uniqueName('lossy'),
          createTopics: true,
          partitions: 12,
          requestTimeoutMs: 1_000,
        },
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
    },
    120_000,
  );

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
    await h.transport().publish(
      topic,
      [1, 2, 3].map((i) => ({ key: keyB, value: `"b${i}"` })),
    );

    await waitFor('partition B handled', () => handled.filter((r) => r.key === keyB).length === 3, h.waitMs);
    const bDone = Date.now();
    expect(bDone).toBeLessThan(failUntil.at - 2_000); // B did not wait for A's outage
    expect(handled.map((r) => r.value)).toEqual(['"b1"', '"b2"', '"b3"']);

    await waitFor(
      'partition A handled after its outage',
      () => handled.filter((r) => r.key === keyA).length === 2,
      h.waitMs,
    );
    expect(handled.filter((r) => r.key === keyA).map((r) => r.value)).toEqual(['"a1"', '"a2"']);
    expect(handled[3].at).toBeGreaterThanOrEqual(failUntil.at);
    expect(attemptsA).toBeGreaterThan(3); // retried while paused, not given up
  }, 120_000);

  test('one group over several topics (as the dead-letter archive reads every .dlq) consumes every partition of each', async () => {
    const topics = [h.topic('kafka.shared-a'), h.topic('kafka.shared-b'), h.topic('kafka.shared-c')];
    const group = uniqueName('shared-group');
    const consumer = h.transport();
    const seen = new Map<string, Set<number>>(topics.map((t) => [t, new Set<number>()]));
    for (const topic of topics)
      await consumer.subscribe({ topic, group, handler: async (r) => void seen.get(r.topic)?.add(r.partition) });
    const producer = h.transport();
    // A key per partition of each topic.
    const keys = new Map<number, string>();
    for (let i = 0; keys.size < 12; i++) keys.set(partitionForKey(`m-${i}`, 12), `m-${i}`);
    for (const topic of topics)
      await producer.publish(
        topic,
        [...keys.values()].map((key) => ({ key, value: '{}' })),
      );

    await waitFor('all 36 partitions consumed', () => [...seen.values()].every((p) => p.size === 12), h.waitMs).catch(
      () => undefined,
    );
    expect(Object.fromEntries([...seen].map(([t, p]) => [t, p.size]))).toEqual(
      Object.fromEntries(topics.map((t) => [t, 12])),
    );
  }, 120_000);

  test('a dead-letter write the broker refuses pauses the partition, without a crash or rebalance, until the DLQ takes the record', async () => {
    const topic = h.topic('kafka.dlq-refused');
    const dlq = deadLetterTopic(topic);
    const brokers = kafkaBrokers.split(',');
    const [keyA, keyB] = keysOnTwoPartitions();
    // A dead-letter topic that refuses anything above 200 bytes: MESSAGE_TOO_LARGE, which kafkajs never retries.
    const admin = new Kafka({ brokers, clientId: uniqueName('dlq-admin'), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const maxBytes = (value: string) => [
      { type: 2 /* TOPIC */, name: dlq, configEntries: [{ name: 'max.message.bytes', value }] },
    ];
    await createTopicsAndWait(admin, [
      { topic: dlq, numPartitions: 12, replicationFactor: 1, configEntries: maxBytes('200')[0].configEntries },
    ]);

    // Joins before the first refused write are the start-up's (a loaded machine may need a few); what counts is after.
    const events = { rebalances: 0, crashes: 0, dlqWriteFailures: 0, rebalancesBeforeFailures: 0 };
    const failures: Error[] = [];
    const onWarn = (msg: string) => {
      if (!msg.startsWith('bus dead-letter write failed')) return;
      if (events.dlqWriteFailures++ === 0) events.rebalancesBeforeFailures = events.rebalances;
    };
    const logger = { info: () => undefined, error: () => undefined, warn: (_: object, msg: string) => onWarn(msg) };
    const consumer = new KafkaTransport(
      {
        brokers,
        clientId: uniqueName('dlq-refused'),
        createTopics: true,
        partitions: 12,
        retryBackoff: { initialMs: 100, maxMs: 500 },
        sessionTimeoutMs: 10_000,
      },
      {
        logger,
        onFailure: (e) => failures.push(e),
        onRebalance: () => void events.rebalances++,
        onCrash: () => void events.crashes++,
      },
    );
    const handled: string[] = [];
    let poisonAttempts = 0;
    const poison = `{not json ${'x'.repeat(400)}`;
    const group = uniqueName('dlq-refused-group');
    try {
      await consumer.subscribe({
        topic,
        group,
        handler: async (r) => {
          if (r.value === poison) poisonAttempts++;
          JSON.parse(r.value); // not JSON: permanent, dead-lettered at once
          handled.push(r.value);
        },
      });
      const dead: IncomingRecord[] = [];
      await h
        .transport()
        .subscribe({ topic: dlq, group: uniqueName('dlq-reader'), handler: async (r) => void dead.push(r) });
      await h.transport().publish(topic, [
        { key: keyA, value: poison },
        { key: keyA, value: '"a-after"' },
      ]);
      await waitFor('dead-letter writes refused, retried', () => events.dlqWriteFailures >= 6, h.waitMs);
      await h.transport().publish(topic, [{ key: keyB, value: '"b"' }]);
      await waitFor('the other partition handled meanwhile', () => handled.includes('"b"'), h.waitMs);
      expect(handled).toEqual(['"b"']); // "a-after" waits behind the record it follows

      await admin.alterConfigs({ validateOnly: false, resources: maxBytes('1048588') });
      await waitFor('the record in the dead-letter topic', () => dead.length === 1, h.waitMs);
      await waitFor('the record after it handled', () => handled.includes('"a-after"'), h.waitMs);
      expect(dead[0].value).toBe(poison);
      expect(dead[0].headers[DLQ_HEADERS.fault]).toBe('permanent');
      expect(poisonAttempts).toBe(events.dlqWriteFailures + 1); // handled again after each pause, dead-lettered once
      // No rebalance loop: a refused write used to throw out of the handler, and every throw restarted the consumer
      // and rejoined the group (one join per refused write, 6 or more here). A loaded machine may see a join more.
      expect({ crashes: events.crashes, failures: failures.length, failed: consumer.failure() }).toEqual({
        crashes: 0,
        failures: 0,
        failed: null,
      });
      const joinsWhileRefused = events.rebalances - events.rebalancesBeforeFailures;
      expect(joinsWhileRefused).toBeLessThanOrEqual(1);
      expect(joinsWhileRefused).toBeLessThan(events.dlqWriteFailures);
      await waitFor('every record committed', async () => (await h.unacknowledged(topic, group)) === 0, h.waitMs);
    } finally {
      await consumer.close();
      await admin.disconnect();
    }
  }, 120_000);

  test('a subscription made while the broker is away waits for it (past kafkajs giving up its retries), then consumes', async () => {
    const topic = h.topic('kafka.start-while-away');
    const brokers = kafkaBrokers.split(',');
    // Until `away` ends, every connection to the broker is refused, as while it restarts.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const refusedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const network = { away: true };
    const socketFactory: ISocketFactory = ({ host, port, onConnect }) =>
      connect(network.away ? { host: '127.0.0.1', port: refusedPort } : { host, port }, onConnect);
    await h.transport().publish(topic, records('before', 1)); // the topic exists (created by a transport that can reach the broker)
    const consumer = new KafkaTransport(
      { brokers, clientId: uniqueName('starting'), createTopics: true, partitions: 12 },
      { socketFactory },
    );
    const seen: IncomingRecord[] = [];
    let outcome = 'waiting';
    try {
      const subscribing = consumer
        .subscribe({ topic, group: uniqueName('start-group'), handler: async (r) => void seen.push(r) })
        .then(
          () => void (outcome = 'subscribed'),
          (error: unknown) => void (outcome = `failed: ${String(error)}`),
        );
      // kafkajs gives up connecting after its 5 retries, about 10 s: without the wait, subscribe fails here.
      await delay(15_000);
      expect(outcome).toBe('waiting');
      network.away = false;
      await subscribing;
      expect(outcome).toBe('subscribed');
      await waitFor('the record published before', () => seen.length === 1, h.waitMs);
      expect(JSON.parse(seen[0].value)).toEqual({ tag: 'before', i: 0 });
    } finally {
      network.away = false;
      await consumer.close();
    }
  }, 120_000);

  test('a consumer that crashes for good (the broker refuses its group membership) is reported, not left silent', async () => {
    const topic = h.topic('kafka.crash');
    const brokers = kafkaBrokers.split(',');
    const failures: Error[] = [];
    const crashes: { restart: boolean }[] = [];
    // A session timeout under the broker's group.min.session.timeout.ms (6 s): INVALID_SESSION_TIMEOUT, which kafkajs never retries.
    const consumer = new KafkaTransport(
      { brokers, clientId: uniqueName('crashing'), createTopics: true, partitions: 12, sessionTimeoutMs: 4_000 },
      { onFailure: (e) => failures.push(e), onCrash: (e) => void crashes.push(e) },
    );
    try {
      expect(consumer.failure()).toBeNull();
      await consumer.subscribe({ topic, group: uniqueName('crash-group'), handler: async () => undefined });

      await waitFor('the consumer reported as failed', () => failures.length > 0, h.waitMs);
      expect(failures).toHaveLength(1);
      expect(crashes).toEqual([expect.objectContaining({ topic, restart: false })]);
      expect(consumer.failure()).toBe(failures[0]);
      expect(failures[0].message).toMatch(
        new RegExp(`kafka consumer of ${topic} .*stopped for good: .*session timeout is not within the range`),
      );
      // What /readyz of ledger, payout and workers asks.
      await expect(busReadinessCheck(consumer).check()).rejects.toThrow(/stopped for good/);
    } finally {
      await consumer.close();
    }
  }, 120_000);

  test('idleReadWaitMs: an idle member reads once per wait instead of every second, and a record arriving mid-wait is read at once', async () => {
    const topic = h.topic('idle-wait');
    const wire = fetchCounter();
    const consumer = new KafkaTransport(
      { brokers: kafkaBrokers.split(','), clientId: uniqueName('idle-wait'), createTopics: true, partitions: 12 },
      { socketFactory: wire.socketFactory },
    );
    const seen: { value: string; at: number }[] = [];
    try {
      await consumer.subscribe({
        topic,
        group: uniqueName('idle-wait'),
        handler: async (r) => void seen.push({ value: r.value, at: Date.now() }),
        idleReadWaitMs: 5_000,
      });
      await delay(1_000); // joined, first fetches sent
      const before = wire.counter.fetches;
      await delay(6_000);
      const idleFetches = wire.counter.fetches - before;
      // The default 1 s long poll: six or seven fetches in this window.
      expect(idleFetches).toBeGreaterThanOrEqual(1);
      expect(idleFetches).toBeLessThanOrEqual(3);
      await delay(1_500); // somewhere inside the current 5 s wait
      const publishedAt = Date.now();
      await h.transport().publish(topic, records('mid-wait', 1));
      await waitFor('the record read', () => seen.length === 1, 20_000);
      expect(seen[0].value).toBe(records('mid-wait', 1)[0].value);
      // The broker answers the held fetch when the record lands, not when the wait ends.
      expect(seen[0].at - publishedAt).toBeLessThan(3_000);
    } finally {
      await consumer.close();
    }
  }, 60_000);

  test('an idle producer and consumer leave the process asleep: no timer re-armed every millisecond (kafkajs#1704)', async () => {
    const transport = h.transport();
    const topic = h.topic('idle');
    const seen: IncomingRecord[] = [];
    await transport.subscribe({ topic, group: uniqueName('idle'), handler: async (r) => void seen.push(r) });
    await transport.publish(topic, records('idle', 3));
    await waitFor('the records consumed', () => seen.length >= 3, 20_000);
    // Every timer any code in this process creates in one idle second (heartbeats, long-poll fetches, request timeouts, this delay).
    let timers = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'Timeout') timers++;
      },
    }).enable();
    try {
      await delay(1_000);
    } finally {
      hook.disable();
    }
    // kafkajs 2.2.4 unpatched: about a thousand per connection that has had an answer.
    expect(timers).toBeLessThan(100);
    expect(seen.map((r) => r.value)).toEqual(records('idle', 3).map((r) => r.value));
  }, 60_000);
});
