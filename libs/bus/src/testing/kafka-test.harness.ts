import { Admin, Kafka } from 'kafkajs';
import { consumerGroupLag } from '../kafka/kafka-lag';
import { KafkaTransport } from '../kafka/kafka.transport';
import { deadLetterTopic } from '../transport/bus-transport.interface';
import { TransportHarness, uniqueName } from './bus-transport.contract';

export function kafkaHarness(brokers: string[]): TransportHarness {
  const transports: KafkaTransport[] = [];
  const topics = new Set<string>();
  let admin: Admin | null = null;
  const connectedAdmin = async (): Promise<Admin> => {
    if (!admin) {
      admin = new Kafka({ brokers, clientId: uniqueName('bus-contract-admin') }).admin();
      await admin.connect();
    }
    return admin;
  };

  return {
    settleMs: 8_000,
    waitMs: 60_000,
    topic(base) {
      const topic = uniqueName(base);
      topics.add(topic);
      return topic;
    },
    transport(overrides = {}) {
      const transport = new KafkaTransport({
        brokers,
        clientId: uniqueName('bus-contract'),
        createTopics: true,
        partitions: 12,
        retryBackoff: { initialMs: 20, maxMs: 100 },
        sessionTimeoutMs: 10_000,
        ...overrides,
      });
      transports.push(transport);
      return transport;
    },
    async unacknowledged(topic, group) {
      return consumerGroupLag(await connectedAdmin(), topic, group);
    },
    async dispose() {
      await Promise.all(transports.splice(0).map((t) => t.close()));
      const client = await connectedAdmin();
      const existing = new Set(await client.listTopics());
      const doomed = [...topics].flatMap((t) => [t, deadLetterTopic(t)]).filter((t) => existing.has(t));
      if (doomed.length > 0) await client.deleteTopics({ topics: doomed });
      await client.disconnect();
    },
  };
}
