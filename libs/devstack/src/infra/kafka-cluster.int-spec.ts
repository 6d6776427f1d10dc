import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type IncomingRecord, KafkaTransport } from '@pay/bus';
import { repoRoot, uniqueName, waitFor } from '@pay/testing';
import { KafkaCluster } from './kafka-cluster';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Production runs Kafka as a cluster (MSK, Confluent, Strimzi: three brokers, every topic
// replicated, min.insync.replicas 2), and its brokers go away one at a time: a rolling restart
// for a version or a patch, a broker lost. Each moves the leadership of partitions to another
// broker under the producers and the consumer groups. Here the bus runs through a rolling restart
// of all three nodes and then a crash of one, while records are published and consumed.
describe('Kafka bus on a three-broker cluster: a rolling restart and a lost broker', () => {
  let cluster: KafkaCluster;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(repoRoot(), 'tmp', 'kafka-cluster-'));
    cluster = await KafkaCluster.start({ dir });
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every record the bus acknowledged is consumed, in order per key; no consumer stops, nothing dead-lettered', async () => {
    const topic = uniqueName('rolling');
    const settings = {
      brokers: cluster.brokers.split(','),
      createTopics: true,
      partitions: 6,
      replicationFactor: 3,
      requestTimeoutMs: 5_000,
    };
    const producer = new KafkaTransport({ ...settings, clientId: uniqueName('rolling-producer') });
    const failures: Error[] = [];
    const deadLetters: string[] = [];
    const consumer = new KafkaTransport(
      {
        ...settings,
        clientId: uniqueName('rolling-consumer'),
        sessionTimeoutMs: 10_000,
        retryBackoff: { initialMs: 100, maxMs: 1_000 },
      },
      { onFailure: (e) => failures.push(e), onDeadLetter: (e) => void deadLetters.push(JSON.stringify(e)) },
    );
    const keys = Array.from({ length: 12 }, (_, i) => `merchant-${i}`);
    const received = new Map<string, number[]>(keys.map((k) => [k, []]));
    const acknowledged = new Map<string, number>();
    let refusals = 0;
    let publishing = true;
    try {
      await consumer.subscribe({
        topic,
        group: uniqueName('rolling-group'),
        handler: async (r: IncomingRecord) => void received.get(r.key)?.push(Number(r.value)),
      });
      // As the outbox relay does: a batch is sent again until the bus acknowledges it, then the next.
      const publisher = (async () => {
        for (let seq = 1; publishing; seq++) {
          const batch = keys.map((key) => ({ key, value: String(seq) }));
          while (
            !(await producer.publish(topic, batch).then(
              () => true,
              () => false,
            ))
          ) {
            refusals++;
            await sleep(200);
          }
          for (const key of keys) acknowledged.set(key, seq);
          await sleep(20);
        }
      })();
      await waitFor(async () => (acknowledged.get(keys[0]) ?? 0) >= 20, 30_000, 'records flowing');

      // A rolling restart: each node shut down (controlled: it hands its leaderships over), started again, and back in sync before the next.
      for (const node of cluster.nodes) {
        await node.restart({ downMs: 2_000 });
        await waitFor(() => cluster.fullyInSync(topic), 60_000, 'every replica back in sync');
      }
      // A broker lost: the leader of partition 0 killed, away 10 s; the others elect new leaders and carry on.
      const leader = await cluster.leaderOf(topic, 0);
      expect(leader).toBeGreaterThanOrEqual(0);
      await cluster.nodes[leader].restart({ crash: true, downMs: 10_000 });
      await waitFor(() => cluster.fullyInSync(topic), 60_000, 'every replica back in sync after the crash');
      await sleep(1_000);
      publishing = false;
      await publisher;

      const last = acknowledged.get(keys[0]) as number;
      await waitFor(
        async () => keys.every((k) => (received.get(k) as number[]).includes(last)),
        60_000,
        'every acknowledged record consumed',
      );
      for (const key of keys) {
        const seen = received.get(key) as number[];
        // At least once (a refused batch may have been written before its answer was lost; consumers drop a repeat), in order.
        const firsts = seen.filter((seq, i) => seen.indexOf(seq) === i);
        expect(firsts).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      }
      expect(failures).toEqual([]);
      expect(deadLetters).toEqual([]);
      console.log(
        `kafka cluster: ${last} batches of ${keys.length} records through a rolling restart and a lost broker; ${refusals} publishes refused and sent again`,
      );
    } finally {
      publishing = false;
      await Promise.all([producer.close(), consumer.close()]);
    }
  }, 420_000);
});
