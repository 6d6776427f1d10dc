import { partitionForKey } from '../partitioner/murmur2.partitioner';

/**
 * The records of a publish split by partition, in order within each (the partition kafkajs's
 * default partitioner picks: Kafka's murmur2 of the key, as partitionForKey), one send each.
 *
 * kafkajs 2.2.4 retries a failed send inside `producer.send`, keeping the answers of the brokers
 * that took their part (sendMessages' responsePerBroker). When a send spans partitions led by
 * two brokers and a partition's leader moves to the other one (a broker restarted or lost: every
 * rolling upgrade of a cluster), the retry finds that broker answered already, sends it nothing,
 * and the send resolves: those records are acknowledged and never written. Seen on a three-broker
 * cluster (libs/devstack/src/infra/kafka-cluster.int-spec.ts: one batch lost per restarted leader);
 * upstream tulios/kafkajs#1798, unmerged. A send of one partition has one broker at a time, so its
 * retry goes to the new leader (decision 0003).
 */
export function onePartitionPerSend<T extends { key: string }>(records: readonly T[], partitions: number): T[][] {
  const groups = new Map<number, T[]>();
  for (const record of records) {
    const partition = partitionForKey(record.key, partitions);
    const group = groups.get(partition);
    if (group) group.push(record);
    else groups.set(partition, [record]);
  }
  return [...groups.values()];
}
