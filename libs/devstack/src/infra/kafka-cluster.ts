import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { freePort } from '../stack/free-port';
import { createKafkaInitTopics, KafkaBroker, newClusterId } from './kafka-broker';

/**
 * A Kafka cluster of several KRaft nodes on this machine (each broker and controller in one JVM,
 * every topic replicated to all of them, min.insync.replicas one fewer), as managed clusters run:
 * for tests of what production sees and one node does not show (a leader moving to another
 * broker, a rolling restart, a broker lost while the others carry on).
 */
export class KafkaCluster {
  /** The node `restart` takes away next (one at a time, in turn). */
  private next = 0;

  private constructor(readonly nodes: readonly KafkaBroker[]) {}

  /** Starts `size` nodes (default 3) side by side, waits for all of them, creates the kafka-init topics replicated to every node. */
  static async start(options: { dir: string; size?: number; heapMb?: number }): Promise<KafkaCluster> {
    const size = options.size ?? 3;
    const ports = await Promise.all(
      Array.from({ length: size }, async () => ({ port: await freePort(), controllerPort: await freePort() })),
    );
    const voters = ports.map((p, i) => `${i + 1}@127.0.0.1:${p.controllerPort}`).join(',');
    const clusterId = newClusterId();
    const started = await Promise.allSettled(
      ports.map((p, i) =>
        KafkaBroker.start({
          dir: join(resolve(options.dir), `node-${i + 1}`),
          heapMb: options.heapMb ?? 384,
          clusterNode: { nodeId: i + 1, ...p, clusterId, voters, replicationFactor: size },
        }),
      ),
    );
    const nodes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    const cluster = new KafkaCluster(nodes);
    try {
      if (failed) throw failed.reason;
      await cluster.withAdmin((admin) => createKafkaInitTopics(admin, size));
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** host:port of every node, for KAFKA_BROKERS */
  get brokers(): string {
    return this.nodes.map((n) => n.brokers).join(',');
  }

  /** The node (0-based) that leads `partition` of `topic` now, or -1 while it has no leader. */
  async leaderOf(topic: string, partition: number): Promise<number> {
    return this.withAdmin(async (admin) => {
      const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      const leader = meta.partitions.find((p) => p.partitionId === partition)?.leader ?? -1;
      return leader > 0 ? leader - 1 : -1;
    });
  }

  /** Whether every partition of `topic` has all its replicas in sync (after a node came back). */
  async fullyInSync(topic: string): Promise<boolean> {
    return this.withAdmin(async (admin) => {
      const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      return meta.partitions.every((p) => p.isr.length === this.nodes.length);
    }).catch(() => false);
  }

  /** The first node's log (each node logs in its own directory, node-<n>/logs). */
  get logFile(): string {
    return this.nodes[0].logFile;
  }

  /**
   * One node taken away and started again, the next one each time (a rolling restart, a broker
   * lost: the others carry on, as min.insync.replicas allows). Resolves once it answers again;
   * returns its number (1-based).
   */
  async restart(opts: { crash?: boolean; downMs?: number } = {}): Promise<number> {
    const index = this.next;
    this.next = (this.next + 1) % this.nodes.length;
    await this.nodes[index].restart(opts);
    return index + 1;
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
  }

  private async withAdmin<T>(work: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
    const admin = new Kafka({
      brokers: this.brokers.split(','),
      clientId: 'kafka-cluster-launcher',
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1_000,
    }).admin();
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
