import { type BusConfig, consumerGroupLag } from '@pay/bus';
import { Kafka, logLevel } from 'kafkajs';
import type { StackBus } from './local-stack';

export interface TestBus {
  /** For LocalStack.start */
  stack: StackBus;
  /** For the test's own transport (publishLedgerCommands, createTransport) */
  config: BusConfig;
}

/**
 * The bus an end-to-end suite runs its stack on: Redis Streams under the suite's own key
 * prefix, or, with E2E_BUS_TRANSPORT=kafka, the broker in KAFKA_BROKERS (tools/test.sh starts
 * one per run), where the suites share the kafka-init topics and groups as production does.
 */
export function testBus(keyPrefix: string): TestBus {
  const stack = testStackBus();
  if (stack.transport === 'kafka') {
    const brokers = stack.brokers.split(',').map((b) => b.trim());
    return { stack, config: { kind: 'kafka', brokers, clientId: 'e2e-test', partitions: 12 } };
  }
  const redisUrl = process.env.TEST_REDIS_URL as string;
  return { stack, config: { kind: 'redis-streams', redisUrl, keyPrefix, partitions: 12 } };
}

/** The bus the end-to-end suites run on (E2E_BUS_TRANSPORT), for suites that bring a broker of their own. */
export function testTransport(): StackBus['transport'] {
  const transport = process.env.E2E_BUS_TRANSPORT ?? 'redis-streams';
  if (transport !== 'redis-streams' && transport !== 'kafka')
    throw new Error(`E2E_BUS_TRANSPORT must be redis-streams or kafka, not ${transport}`);
  return transport;
}

/** The StackBus of testBus, for suites that never touch the bus themselves. */
export function testStackBus(): StackBus {
  const transport = testTransport();
  if (transport === 'redis-streams') return { transport };
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers)
    throw new Error('E2E_BUS_TRANSPORT=kafka needs KAFKA_BROKERS (tools/test.sh starts a broker and sets it)');
  return { transport, brokers };
}

/** Records of `topic` that `group` has received (Redis) or been sent (Kafka) and not acknowledged yet. */
export async function unacknowledgedRecords(config: BusConfig, topic: string, group: string): Promise<number> {
  if (config.kind === 'kafka') {
    const admin = new Kafka({ brokers: config.brokers, clientId: 'e2e-lag', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      return await consumerGroupLag(admin, topic, group);
    } finally {
      await admin.disconnect();
    }
  }
  const { default: Redis } = await import('ioredis');
  // A lag read may meet a Redis the test is restarting: the command fails, the process does not.
  const redis = new Redis(config.redisUrl).on('error', () => undefined);
  try {
    let total = 0;
    for (const stream of await redis.keys(`${config.keyPrefix ?? ''}*${topic}*`)) {
      if ((await redis.type(stream)) !== 'stream') continue;
      const groups = (await redis.xinfo('GROUPS', stream)) as (string | number)[][];
      for (const fields of groups) {
        if (fields[fields.indexOf('name') + 1] !== group) continue;
        total += Number(fields[fields.indexOf('pending') + 1]);
      }
    }
    return total;
  } finally {
    redis.disconnect();
  }
}
