import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { WebhookReceiver } from '../http/webhook-receiver';
import { PrivatePostgres } from '../infra/private-postgres';
import { PrivateRedis } from '../infra/private-redis';
import type { S3Server } from '../s3/s3-server';
import { LocalStack, type StackBus } from '../stack/local-stack';
import { createTestDatabase, uniqueName } from '../test-database';
import type { ChaosInfra } from './fault-injector';

export interface ChaosEnv {
  infra: ChaosInfra;
  stack: LocalStack;
  prisma: PrismaClient;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export interface ChaosEnvOptions {
  logDir: string;
  /** Settings for every service */
  env: Record<string, string>;
  nodeArgs?: string[];
  /** Absent: Redis Streams on the private Redis */
  bus?: StackBus;
  /** A running S3 server to use (the e2e run's S3Proxy); absent: s3rver started with the stack */
  s3?: S3Server;
  /** docker-compose's Redis runs everysec (the default) */
  appendfsync?: 'everysec' | 'always';
}

/**
 * The stack of a chaos run on servers of its own (a private PostgreSQL cluster and a Redis that
 * keeps an append-only file), so outages never reach the machine's shared 5432 and 6379 or
 * anyone else's tests. close() stops everything and removes the servers' data.
 */
export async function startChaosEnv(o: ChaosEnvOptions): Promise<ChaosEnv> {
  const postgres = await PrivatePostgres.start();
  const redis = await PrivateRedis.start({ persistent: true, appendfsync: o.appendfsync ?? 'everysec' });
  const cleanups: (() => Promise<void>)[] = [() => redis.destroy(), () => postgres.destroy()];
  const close = async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((err: unknown) => console.error('chaos env cleanup:', err));
  };
  try {
    const databaseUrl = await createTestDatabase('pay_chaos', postgres.url(''));
    const receiver = await WebhookReceiver.start();
    cleanups.unshift(() => receiver.close());
    const stack = await LocalStack.start({ databaseUrl, redisUrl: redis.url, busKeyPrefix: `${uniqueName('chaos')}:`, bus: o.bus, logDir: o.logDir, env: o.env, nodeArgs: o.nodeArgs, s3: o.s3 });
    cleanups.unshift(() => stack.stop());
    const prisma = createPrismaClient(databaseUrl, 4);
    cleanups.unshift(() => prisma.$disconnect());
    return { infra: { postgres, redis, database: new URL(databaseUrl).pathname.slice(1) }, stack, prisma, receiver, close };
  } catch (err) {
    await close();
    throw err;
  }
}
