import { Kafka, logLevel } from 'kafkajs';
import { uniqueName, waitFor } from '../testing/bus-transport.contract';
import { redisHarness } from '../testing/redis-test.harness';
import { createTopicsAndWait } from '../kafka/kafka-topics';
import { KafkaTransport } from '../kafka/kafka.transport';
import { TopicReadiness, withDeadLetterTopics } from './topic-readiness';

function recordingLogger() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, msg, obj });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const kafkaBrokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter((b) => b.length > 0);

(kafkaBrokers.length > 0 ? describe : describe.skip)('bus-topics readiness on a real Kafka broker', () => {
  const kafka = new Kafka({ brokers: kafkaBrokers, clientId: 'topic-readiness-test', logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const [complete, fewPartitions, absent] = [
    uniqueName('ready.complete'),
    uniqueName('ready.few'),
    uniqueName('ready.absent'),
  ];
  const made: string[] = [];
  const create = async (topic: string, numPartitions = 12) => {
    await createTopicsAndWait(admin, [{ topic, numPartitions, replicationFactor: 1 }]);
    made.push(topic);
  };
  beforeAll(() => admin.connect());
  afterAll(async () => {
    await admin.deleteTopics({ topics: made }).catch(() => undefined);
    await admin.disconnect();
  });

  it('fails, naming the missing topics and the wrong partition counts, until they are right; then passes', async () => {
    await create(complete);
    await create(`${complete}.dlq`);
    await create(fewPartitions, 3);
    const transport = new KafkaTransport({ brokers: kafkaBrokers, clientId: 'topic-readiness-test', partitions: 12 });
    const { lines, logger } = recordingLogger();
    const readiness = new TopicReadiness(transport, withDeadLetterTopics([complete, fewPartitions, absent]), {
      logger,
      intervalMs: 200,
    });
    try {
      await expect(readiness.check()).rejects.toThrow('not checked yet');
      readiness.start();
      await waitFor('a first round', () => lines.length > 0, 15_000);
      const failure = await readiness.check().then(
        () => null,
        (e: Error) => e.message,
      );
      expect(failure).toContain(`bus topics missing: ${fewPartitions}.dlq, ${absent}, ${absent}.dlq`);
      expect(failure).toContain(`${fewPartitions} has 3, expected 12`);
      expect(failure).not.toContain(`${complete},`);
      expect(lines[0]).toMatchObject({
        level: 'error',
        obj: { missing: [`${fewPartitions}.dlq`, absent, `${absent}.dlq`] },
      });
      expect(lines[0].msg).toMatch(/^NOT READY: bus topics missing/);

      // The operator creates what was missing and adds partitions: ready at the next round, without a restart.
      for (const topic of [`${fewPartitions}.dlq`, absent, `${absent}.dlq`]) await create(topic);
      await admin.createPartitions({ topicPartitions: [{ topic: fewPartitions, count: 12 }] });
      await waitFor(
        'readiness to pass',
        () =>
          readiness.check().then(
            () => true,
            () => false,
          ),
        15_000,
      );
      expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'bus topics present' });
      expect(await transport.checkTopics(withDeadLetterTopics([complete, fewPartitions, absent]))).toEqual({
        missing: [],
        wrongPartitions: [],
      });
    } finally {
      readiness.stop();
      await transport.close();
    }
  }, 60_000);
});

describe('bus-topics readiness on Redis Streams', () => {
  const h = redisHarness();
  afterAll(() => h.dispose());

  it('passes: a stream is made by its first record, there is nothing to check', async () => {
    const readiness = new TopicReadiness(h.transport(), withDeadLetterTopics(['never.written']), { intervalMs: 200 });
    readiness.start();
    await waitFor(
      'readiness to pass',
      () =>
        readiness.check().then(
          () => true,
          () => false,
        ),
      5_000,
    );
    readiness.stop();
  });
});
