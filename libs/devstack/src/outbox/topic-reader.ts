import { Kafka, logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';

export interface ReadRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  headers: Record<string, string>;
}

/**
 * Every record of `topics` from the beginning of each partition up to its end at the time of the
 * call (the high watermark), in log order per partition: what a consumer would ever see of them.
 */
export async function readTopics(
  brokers: string[],
  topics: readonly string[],
  timeoutMs = 30_000,
): Promise<ReadRecord[]> {
  const kafka = new Kafka({
    brokers,
    clientId: `topic-reader-${randomUUID().slice(0, 8)}`,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<string, number>();
  try {
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic))
        if (Number(p.high) > Number(p.low)) ends.set(`${topic}/${p.partition}`, Number(p.high));
    }
  } finally {
    await admin.disconnect();
  }
  const records: ReadRecord[] = [];
  if (ends.size === 0) return records;
  const consumer = kafka.consumer({ groupId: `topic-reader-${randomUUID()}`, allowAutoTopicCreation: false });
  const pending = new Set(ends.keys());
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...topics], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        const offset = Number(message.offset);
        const end = ends.get(`${topic}/${partition}`) ?? 0;
        if (offset >= end) return;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {}))
          if (value !== undefined) headers[name] = value.toString();
        records.push({ topic, partition, offset, key: message.key?.toString() ?? '', headers });
        if (offset === end - 1) pending.delete(`${topic}/${partition}`);
        if (pending.size === 0) done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      finished,
      new Promise<void>(
        (_, reject) =>
          (timer = setTimeout(
            () =>
              reject(
                new Error(`read ${records.length} records; partitions not read to the end: ${[...pending].join(', ')}`),
              ),
            timeoutMs,
          )),
      ),
    ]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.disconnect();
  }
  return records.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition || a.offset - b.offset);
}
