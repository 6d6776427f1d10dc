import type { Admin } from 'kafkajs';

/**
 * Records of `topic` that `group` has not committed yet, over all partitions (a group that never
 * committed counts from the start of the log): the consumer lag.
 */
export async function consumerGroupLag(admin: Admin, topic: string, group: string): Promise<number> {
  const ends = await admin.fetchTopicOffsets(topic);
  const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
  let lag = 0;
  for (const end of ends) {
    const done = committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
    lag += Number(end.high) - (done === '-1' ? Number(end.low) : Number(done));
  }
  return lag;
}
