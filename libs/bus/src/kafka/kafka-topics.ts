import type { Admin } from 'kafkajs';
import type { TopicCheck } from '../transport/bus-transport.interface';

export interface KafkaTopicSpec {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
  configEntries?: { name: string; value: string }[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the topics that do not exist yet and resolves once every partition has a leader.
 *
 * Not kafkajs's `createTopics({ waitForLeaders: true })`: on a KRaft broker the metadata of a
 * topic just created reaches the broker a moment after the controller answered, and kafkajs
 * retries only LEADER_NOT_AVAILABLE, so a busy broker's UNKNOWN_TOPIC_OR_PARTITION failed the
 * whole call (seen in the contract suite on a loaded machine).
 */
export async function createTopicsAndWait(admin: Admin, specs: KafkaTopicSpec[], timeoutMs = 30_000): Promise<void> {
  if (specs.length === 0) return;
  await admin.createTopics({ waitForLeaders: false, topics: specs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let lastProblem: string;
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
      const notReady = specs.filter((spec) => {
        const partitions = topics.find((t) => t.name === spec.topic)?.partitions ?? [];
        return partitions.length < spec.numPartitions || partitions.some((p) => p.leader < 0);
      });
      if (notReady.length === 0) return;
      lastProblem = `no leader yet for ${notReady.map((s) => s.topic).join(', ')}`;
    } catch (err) {
      // UNKNOWN_TOPIC_OR_PARTITION / LEADER_NOT_AVAILABLE while the metadata propagates
      lastProblem = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) throw new Error(`Kafka topics not ready after ${timeoutMs} ms: ${lastProblem}`);
    await sleep(100);
  }
}

/** Which of `topics` the cluster lacks, or has with another partition count than `partitions`. */
export async function checkKafkaTopics(
  admin: Admin,
  topics: readonly string[],
  partitions: number,
): Promise<TopicCheck> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t));
  const present = topics.filter((t) => existing.has(t));
  const metadata = present.length > 0 ? (await admin.fetchTopicMetadata({ topics: present })).topics : [];
  const counts = new Map(metadata.map((t) => [t.name, t.partitions.length]));
  const wrongPartitions = present
    .filter((t) => counts.get(t) !== partitions)
    .map((topic) => ({ topic, expected: partitions, actual: counts.get(topic) ?? 0 }));
  return { missing, wrongPartitions };
}
