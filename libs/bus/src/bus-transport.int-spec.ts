import { describeTransportContract } from './testing/bus-transport.contract';
import { kafkaHarness } from './testing/kafka-test.harness';
import { redisHarness } from './testing/redis-test.harness';

describeTransportContract('redis-streams', redisHarness);

// Registered only when a broker is reachable: no skipped tests on machines without Kafka.
const kafkaBrokers = process.env.KAFKA_BROKERS;
if (kafkaBrokers) {
  describeTransportContract('kafka', () => kafkaHarness(kafkaBrokers.split(',').map((b) => b.trim())), 120_000);
}
