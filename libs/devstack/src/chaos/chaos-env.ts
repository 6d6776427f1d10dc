import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createTestDatabase, uniqueName, WebhookReceiver } from '@pay/testing';
import { KafkaBroker } from '../infra/kafka-broker';
import { KafkaCluster } from '../infra/kafka-cluster';
import { PrivatePostgres } from '../infra/private-postgres';
import { PrivateRedis } from '../infra/private-redis';
import { PrivateSentinel } from '../infra/private-sentinel';
import { SilentRelay } from '../infra/silent-relay';
import type { S3Server } from '../s3/s3-server';
import { LocalStack, type StackBus } from '../stack/local-stack';
import { BusProbe } from './bus-probe';
import type { ChaosInfra } from './fault-injector';

export interface ChaosEnv {
  infra: ChaosInfra;
  stack: LocalStack;
  prisma: PrismaClient;
  receiver: WebhookReceiver;
  /** Looks at the services' consumer groups (backlog, records in hand) */
  probe: BusProbe;
  close(): Promise<void>;
}

export interface ChaosEnvOptions {
  logDir: string;
  /** Settings for every service */
  env: Record<string, string>;
  nodeArgs?: string[];
  /** Absent: Redis Streams on the private Redis; Kafka runs on a broker of the run's own */
  transport?: StackBus['transport'];
  /** A running S3 server to use (the e2e run's S3Proxy); absent: an S3Proxy started with the stack */
  s3?: S3Server;
  /** docker-compose's Redis runs everysec (the default) */
  appendfsync?: 'everysec' | 'always';
  /** A streaming standby, and the stack on PostgreSQL through a relay (one address), for pg-failover faults */
  failover?: boolean;
  /** Redis as a primary, a replica and a Sentinel (REDIS_URL redis+sentinel://), for redis-failover faults */
  redisSentinel?: boolean;
  /** Kafka only: nodes of the run's cluster (default 1; more: every topic replicated to all, min.insync.replicas one fewer) */
  kafkaNodes?: number;
}

/**
 * The stack of a chaos run on servers of its own (a private PostgreSQL cluster, a Redis that
 * keeps an append-only file and, on Kafka, a broker with the kafka-init topics), so outages
 * never reach the machine's shared 5432, 6379 and test broker or anyone else's tests. close()
 * stops everything and removes the servers' data.
 */
export async function startChaosEnv(o: ChaosEnvOptions): Promise<ChaosEnv> {
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0))
      await cleanup().catch((err: unknown) => console.error('chaos env cleanup:', err));
  };
  try {
    const kafkaDir = o.transport === 'kafka' ? mkdtempSync(join(tmpdir(), 'chaos-kafka-')) : undefined;
    if (kafkaDir) cleanups.push(async () => rmSync(kafkaDir, { recursive: true, force: true }));
    // The three servers start side by side (the broker's JVM takes longest); whichever started is cleaned up if another fails.
    const redisData = { persistent: true, appendfsync: o.appendfsync ?? 'everysec' } as const;
    const [pg, rd, kf] = await Promise.allSettled([
      PrivatePostgres.start(),
      o.redisSentinel ? PrivateSentinel.start(redisData) : PrivateRedis.start(redisData),
      kafkaDir
        ? (o.kafkaNodes ?? 1) > 1
          ? KafkaCluster.start({ dir: kafkaDir, size: o.kafkaNodes, heapMb: 384 })
          : KafkaBroker.start({ dir: kafkaDir, heapMb: 512 })
        : Promise.resolve(undefined),
    ]);
    if (pg.status === 'fulfilled') cleanups.unshift(() => pg.value.destroy());
    if (rd.status === 'fulfilled') cleanups.unshift(() => rd.value.destroy());
    if (kf.status === 'fulfilled' && kf.value) cleanups.unshift(() => (kf.value as KafkaBroker | KafkaCluster).stop());
    const [postgres, redis, kafka] = [started(pg), started(rd), started(kf)];
    const bus: StackBus = kafka ? { transport: 'kafka', brokers: kafka.brokers } : { transport: 'redis-streams' };
    const primaryUrl = await createTestDatabase('pay_chaos', postgres.url(''));
    const infra: ChaosInfra = {
      postgres,
      kafka,
      database: new URL(primaryUrl).pathname.slice(1),
      ...(redis instanceof PrivateSentinel ? { sentinel: redis } : { redis }),
    };
    let databaseUrl = primaryUrl;
    if (o.failover) {
      const relay = await SilentRelay.start(primaryUrl);
      cleanups.unshift(() => relay.stop());
      infra.failover = { relay, standby: await postgres.standby(), retired: [] };
      // Whichever servers the failovers left: the first primary is destroyed by its own cleanup above.
      const failover = infra.failover;
      cleanups.unshift(
        async () =>
          void (await Promise.all(
            [infra.postgres, failover.standby, ...failover.retired]
              .filter((server) => server !== postgres)
              .map((server) => server.destroy()),
          )),
      );
      databaseUrl = relay.url;
    }
    const receiver = await WebhookReceiver.start();
    cleanups.unshift(() => receiver.close());
    const keyPrefix = `${uniqueName('chaos')}:`;
    // Behind Sentinel, a bus record counts as published once the replica holds it too: a failover cannot lose it (decision 0015).
    const env = redis instanceof PrivateSentinel && !kafka ? { BUS_REDIS_WAIT_REPLICAS: '1', ...o.env } : o.env;
    const stack = await LocalStack.start({
      databaseUrl,
      redisUrl: redis.url,
      busKeyPrefix: keyPrefix,
      bus,
      logDir: o.logDir,
      env,
      nodeArgs: o.nodeArgs,
      s3: o.s3,
    });
    cleanups.unshift(() => stack.stop());
    const prisma = createPrismaClient(databaseUrl, 4);
    cleanups.unshift(() => prisma.$disconnect());
    const probe = new BusProbe(
      kafka
        ? { transport: 'kafka', brokers: kafka.brokers }
        : {
            transport: 'redis-streams',
            redisUrl: redis.url,
            keyPrefix,
            partitions: Number(o.env.BUS_PARTITIONS ?? 12),
          },
    );
    cleanups.unshift(() => probe.close());
    return { infra, stack, prisma, receiver, probe, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function started<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}
