import { Partitioners } from 'kafkajs';
import { onePartitionPerSend } from './one-partition-per-send';

describe('onePartitionPerSend', () => {
  const kafkajsPartition = Partitioners.DefaultPartitioner();
  const metadata = Array.from({ length: 12 }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
    partitionErrorCode: 0,
    offlineReplicas: [],
  }));
  const placed = (key: string) =>
    kafkajsPartition({ topic: 't', partitionMetadata: metadata, message: { key, value: '' } });

  it('groups records as kafkajs places them: every group is one partition of kafkajs', () => {
    const records = Array.from({ length: 500 }, (_, i) => ({ key: `merchant-${i % 97}`, seq: i }));
    const groups = onePartitionPerSend(records, 12);
    for (const group of groups) expect(new Set(group.map((r) => placed(r.key))).size).toBe(1);
    expect(new Set(groups.map((g) => placed(g[0].key))).size).toBe(groups.length);
    expect(groups.flat()).toHaveLength(500);
  });

  it('keeps the order of the records within each partition', () => {
    const records = Array.from({ length: 200 }, (_, i) => ({ key: `k${i % 7}`, seq: i }));
    for (const group of onePartitionPerSend(records, 12)) {
      expect(group.map((r) => r.seq)).toEqual([...group.map((r) => r.seq)].sort((a, b) => a - b));
    }
  });
});
