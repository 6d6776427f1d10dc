import { createServer, type Server, type Socket } from 'node:net';
import { createPgPool, createPrismaClient, type PrismaClient, ReconExportRepository } from '@pay/persistence';
import {
  classifyFault,
  createLogger,
  ObjectStore,
  RECON_EXPORT_ATTEMPTS,
  ReconExportProducer,
  storageConfigSchema,
} from '@pay/platform';
import { randomUUID } from 'node:crypto';
import { createMerchant } from '@pay/testing';
import { S3Proxy } from '@pay/devstack';
import type { Pool } from 'pg';
import { ReconExportQueue } from './recon-export.queue';

/** A TCP server that accepts connections and never answers: an object store that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => void sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A recon export attempt against an object store that is away ends promptly as a transient fault
 * and leaves nothing held, so the queue's retry (or the next export) can run. Found by the chaos
 * run: with S3 stopped, both worker slots hung for good and every later export stayed queued.
 */
describe('ReconExportQueue.build when the object store is away (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let s3: S3Proxy;
  const logger = createLogger('workers-test', 'fatal');
  const storeAt = (env: Record<string, string>) => new ObjectStore(storageConfigSchema.parse(env), 30_000);

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
    s3 = await S3Proxy.start();
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await s3.close();
  });

  const newExport = async () => {
    const { merchant } = await createMerchant(prisma);
    return new ReconExportRepository(prisma).createQueued(merchant.id, '2026-11-20');
  };
  const queueWith = (store: ObjectStore, stallMs?: number) =>
    new ReconExportQueue(
      new ReconExportRepository(prisma),
      pool,
      store,
      logger,
      { connection: { host: '127.0.0.1', port: 1 }, prefix: 'unused' },
      undefined,
      stallMs,
    );
  const checkedOut = () => pool.totalCount - pool.idleCount;

  it('a store that refuses connections: the attempt fails at once, transient, its connection released; the retry with the store back builds the file', async () => {
    const e = await newExport();
    const closed = await silentServer();
    await closed.close(); // nothing listens there any more: connections are refused
    const t0 = Date.now();
    const err = await queueWith(storeAt({ S3_ENDPOINT: `http://127.0.0.1:${closed.port}` }))
      .build(e.id)
      .catch((x: unknown) => x);
    expect(classifyFault(err)).toBe('transient');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(checkedOut()).toBe(0);

    const store = storeAt(s3.env);
    await store.ensureBucket();
    await expect(queueWith(store).build(e.id, 2)).resolves.toBe(0);
    expect((await prisma.reconExport.findUniqueOrThrow({ where: { id: e.id } })).status).toBe('ready');
    expect(checkedOut()).toBe(0);
  });

  it('a store that accepts and never answers: the attempt is abandoned once nothing moved for the stall limit', async () => {
    const e = await newExport();
    const silent = await silentServer();
    try {
      const t0 = Date.now();
      const err = await queueWith(storeAt({ S3_ENDPOINT: `http://127.0.0.1:${silent.port}` }), 500)
        .build(e.id)
        .catch((x: unknown) => x);
      expect(classifyFault(err)).toBe('transient');
      expect(String(err)).toContain('no progress');
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(checkedOut()).toBe(0);
    } finally {
      await silent.close();
    }
  });

  it('through the queue: an object store away for a while spends no attempt; the export is built once it is back', async () => {
    const connection = { url: process.env.TEST_REDIS_URL as string };
    const prefix = `${process.env.TEST_REDIS_PREFIX}recon-${randomUUID().slice(0, 8)}`;
    const own = await S3Proxy.start();
    const store = storeAt(own.env);
    const queue = new ReconExportQueue(new ReconExportRepository(prisma), pool, store, logger, { connection, prefix });
    const producer = new ReconExportProducer(connection, prefix, logger);
    try {
      await store.ensureBucket();
      await queue.start();
      await own.stop();
      const e = await newExport();
      await producer.enqueue(e.id);
      // Waits of 1, 2 and 4 s: at least three attempts fail on the store while it is away.
      await new Promise((r) => setTimeout(r, 4_500));
      const job = await producer.queue.getJob(e.id);
      expect(job?.attemptsStarted).toBeGreaterThanOrEqual(3);
      expect(job?.attemptsMade).toBe(0); // none spent: RECON_EXPORT_ATTEMPTS still ahead
      expect(RECON_EXPORT_ATTEMPTS).toBeGreaterThan(1);
      expect((await prisma.reconExport.findUniqueOrThrow({ where: { id: e.id } })).status).not.toBe('failed');

      await own.restart();
      const deadline = Date.now() + 15_000;
      let status = '';
      while (Date.now() < deadline && status !== 'ready') {
        await new Promise((r) => setTimeout(r, 200));
        status = (await prisma.reconExport.findUniqueOrThrow({ where: { id: e.id } })).status;
      }
      expect(status).toBe('ready');
    } finally {
      await queue.stop();
      await producer.close();
      await own.close();
    }
  }, 30_000);
});
