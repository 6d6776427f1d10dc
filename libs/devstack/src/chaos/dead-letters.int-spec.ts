import { RedisStreamsTransport } from '@pay/bus';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { PermanentError } from '@pay/platform';
import { uniqueName, waitFor } from '@pay/testing';
import { readDeadLetters } from './dead-letters';

/** The chaos run's dead-letter count reads what the real bus writes, and counts each record once. */
describe('readDeadLetters', () => {
  const redisUrl = process.env.TEST_REDIS_URL as string;
  const prefix = `${process.env.TEST_REDIS_PREFIX}${uniqueName('dlq')}:`;
  let prisma: PrismaClient;
  let bus: RedisStreamsTransport;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    bus = new RedisStreamsTransport({ redisUrl, keyPrefix: prefix, partitions: 2, blockMs: 100 });
  });
  afterAll(async () => {
    await bus.close();
    await prisma.$disconnect();
  });

  // The table is shared with the run's other tests: only this test's topic is looked at.
  const topic = uniqueName('chaos.test');
  const mine = async () =>
    (await readDeadLetters(redisUrl, prefix, prisma)).filter((d) => d.dlqTopic === `${topic}.dlq`);

  it('finds a record the bus dead-lettered in its dlq stream, and once only when the workers archived it too', async () => {
    expect(await mine()).toEqual([]);
    await bus.subscribe({
      topic,
      group: 'g',
      handler: async () => Promise.reject(new PermanentError('cannot ever apply')),
    });
    await bus.publish(topic, [{ key: 'merchant-7', value: '{"commandId":"c-1"}' }]);
    await waitFor(async () => (await mine()).length === 1, 10_000, 'dead-lettered');

    const [found] = await mine();
    expect(found).toMatchObject({
      dlqTopic: `${topic}.dlq`,
      id: expect.stringMatching(/^\d+:\d+-\d+$/),
      seenIn: 'stream',
      originalTopic: topic,
      key: 'merchant-7',
      group: 'g',
      value: '{"commandId":"c-1"}',
    });
    expect(found.error).toContain('cannot ever apply');

    await prisma.deadLetter.create({
      data: {
        dlqTopic: found.dlqTopic,
        dlqRecordId: found.id,
        topic,
        originalId: 'x',
        consumerGroup: 'g',
        key: 'merchant-7',
        value: found.value,
        fault: 'permanent',
        error: 'cannot ever apply',
        deliveryCount: 1,
        deadLetteredAt: new Date(),
      },
    });
    expect(await mine()).toEqual([{ ...found, seenIn: 'both' }]);
  });
});
