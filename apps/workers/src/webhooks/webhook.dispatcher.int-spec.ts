import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  applyMigrations,
  createPgPool,
  createPrismaClient,
  dropDatabase,
  ensureDatabase,
  type PrismaClient,
  PgListener,
  webhookDeliveryChannel,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createMerchant, repoRoot, waitFor, WebhookReceiver } from '@pay/testing';
import type { Pool } from 'pg';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDispatcher } from './webhook.dispatcher';

/**
 * The dispatcher claims every due delivery of its database: this suite has a database of its own,
 * so no other suite's deliveries are taken (and none of this suite's by another). Real Postgres,
 * real HTTP receivers, real time.
 */
describe('WebhookDispatcher (real Postgres, NOTIFY wake-ups, real HTTP)', () => {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${url.pathname.slice(1)}_dispatch_${randomBytes(3).toString('hex')}`;
  const logger = createLogger('test', (process.env.TEST_LOG_LEVEL as 'fatal' | undefined) ?? 'fatal');
  let prisma: PrismaClient;
  let pool: Pool;
  let repo: WebhookDeliveryRepository;
  let merchantId: number;
  const receivers: WebhookReceiver[] = [];
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    await ensureDatabase(url.toString());
    await applyMigrations(url.toString(), join(repoRoot(), 'prisma', 'migrations'));
    prisma = createPrismaClient(url.toString(), 2);
    pool = createPgPool(url.toString(), 8);
    repo = new WebhookDeliveryRepository(pool);
    merchantId = (await createMerchant(prisma)).merchant.id;
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    for (const r of receivers.splice(0)) await r.close();
    await prisma.webhookDelivery.updateMany({
      where: { status: { in: ['pending', 'delivering'] } },
      data: { status: 'failed' },
    });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url.toString());
  });

  async function receiver(...args: Parameters<typeof WebhookReceiver.start>): Promise<WebhookReceiver> {
    const r = await WebhookReceiver.start(...args);
    receivers.push(r);
    return r;
  }

  /** A dispatcher as the workers run it: woken by the delivery NOTIFY, its safety-net poll far away (10 min). */
  async function dispatcher(concurrency = 20, timeoutMs = 2000): Promise<WebhookDispatcher> {
    const service = new WebhookDeliveryService(repo, logger, {
      timeoutMs,
      maxResponseBytes: 4096,
      allowLoopback: true,
      leaseGraceMs: 500,
    });
    const d = new WebhookDispatcher(repo, service, logger, { concurrency, safetyIntervalMs: 600_000 });
    const listener = new PgListener(url.toString()).listen(webhookDeliveryChannel(() => d.wake()));
    await listener.start();
    d.start();
    stops.push(async () => {
      await listener.stop();
      await d.stop();
    });
    return d;
  }

  const newDelivery = (target: string) => {
    const id = randomUUID();
    return repo.create(
      {
        eventId: `disbursement.${id}.success`,
        eventType: 'disbursement.succeeded',
        merchantId,
        disbursementId: id,
        url: target,
        body: JSON.stringify({ id }),
      },
      new Date(),
    );
  };
  const attemptsOf = async (ids: string[]) => prisma.webhookAttempt.findMany({ where: { deliveryId: { in: ids } } });

  it('a delivery committed while it idles is sent at once (the NOTIFY), signed, and recorded', async () => {
    const target = await receiver();
    await dispatcher();
    const d = await newDelivery(target.url);
    await waitFor(
      async () => (await repo.findWithAttempts(d.id))?.status === 'delivered',
      5_000,
      'delivered without a poll',
    );
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0].headers['x-callback-event-id']).toBe(d.eventId);
    expect(target.requests[0].headers['x-callback-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await repo.findWithAttempts(d.id)).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
      attempts: [{ attemptNo: 1, statusCode: 200, outcome: 'delivered' }],
    });
  });

  it('never has more attempts in flight than its concurrency, and sends every waiting delivery once', async () => {
    const target = await receiver(() => 'hang');
    const d = await dispatcher(3, 500);
    let most = 0;
    const sample = setInterval(() => (most = Math.max(most, d.active)), 2);
    try {
      const ids = (await Promise.all(Array.from({ length: 10 }, () => newDelivery(target.url)))).map((x) => x.id);
      await waitFor(async () => target.requests.length === 3, 5_000, 'the first three');
      await new Promise((r) => setTimeout(r, 200));
      expect(target.requests).toHaveLength(3); // the rest wait for a free slot
      // Every hanging attempt times out (0.5 s) and frees its slot; all ten are attempted exactly once.
      await waitFor(async () => (await attemptsOf(ids)).length === 10, 20_000, 'ten attempts');
      expect(new Set(target.requests.map((r) => r.headers['x-callback-event-id'])).size).toBe(10);
      expect((await attemptsOf(ids)).every((a) => a.outcome === 'retry' && /timed out/.test(a.error ?? ''))).toBe(true);
    } finally {
      clearInterval(sample);
    }
    expect(most).toBe(3);
  });

  it('two dispatchers at once never take the same delivery: each is sent and recorded once', async () => {
    const target = await receiver();
    await dispatcher(4);
    await dispatcher(4);
    const ids = (await Promise.all(Array.from({ length: 30 }, () => newDelivery(target.url)))).map((x) => x.id);
    await waitFor(
      async () => (await prisma.webhookDelivery.count({ where: { id: { in: ids }, status: 'delivered' } })) === 30,
      10_000,
      'thirty delivered',
    );
    expect(target.requests).toHaveLength(30);
    expect(new Set(target.requests.map((r) => r.headers['x-callback-event-id'])).size).toBe(30);
    expect(await attemptsOf(ids)).toHaveLength(30);
  });

  it('takes over an attempt whose worker died (lease lapsed), and an operator resend wakes it at once', async () => {
    const target = await receiver((n) => ({ status: n === 0 ? 400 : 200 }));
    const abandoned = await newDelivery(target.url);
    // Claimed by a worker that died before recording anything: delivering, lease already lapsed.
    await repo.claim(abandoned.id, new Date(), 0);
    await dispatcher();
    await waitFor(
      async () => (await repo.findWithAttempts(abandoned.id))?.status === 'failed',
      5_000,
      'the abandoned one attempted',
    );
    expect(await repo.findWithAttempts(abandoned.id)).toMatchObject({
      attemptCount: 2,
      attempts: [{ attemptNo: 2, statusCode: 400, outcome: 'failed' }],
    });

    await repo.resend(abandoned.id, new Date());
    await waitFor(
      async () => (await repo.findWithAttempts(abandoned.id))?.status === 'delivered',
      5_000,
      'the resend sent without a poll',
    );
    expect(target.requests).toHaveLength(2);
  });

  it('a round says when the earliest scheduled retry falls due, so the loop sleeps until then', async () => {
    const target = await receiver(() => ({ status: 503 }));
    const service = new WebhookDeliveryService(repo, logger, {
      timeoutMs: 2000,
      maxResponseBytes: 4096,
      allowLoopback: true,
      leaseGraceMs: 500,
    });
    const d = new WebhookDispatcher(repo, service, logger, { concurrency: 5, safetyIntervalMs: 600_000 });
    const delivery = await newDelivery(target.url);
    expect((await d.dispatchDue()).dispatched).toBe(1);
    await d.stop(); // waits for the attempt in flight
    const retryAt = (await repo.findWithAttempts(delivery.id))?.nextAttemptAt as Date;
    expect(retryAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await d.dispatchDue()).toEqual({ dispatched: 0, nextDueAt: retryAt });
  });
});
