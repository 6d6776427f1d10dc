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
import { createMerchant, repoRoot, UnacceptingListener, waitFor, WebhookReceiver } from '@pay/testing';
import type { Pool } from 'pg';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDispatcher } from './webhook.dispatcher';

/**
 * The dispatcher claims every due delivery of its database: this suite has a database of its own,
 * so no other suite's deliveries are taken (and none of this suite's by another). Real Postgres,
 * real HTTP receivers, real time. Also: one merchant's callback URL that never answers must not
 * delay another merchant's callbacks (issue 39): each merchant has a fair share of the slots.
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

  interface DispatcherSetup {
    concurrency?: number;
    perMerchant?: number;
    /** The whole attempt's timeout; the connect and first-byte ones are the same unless given */
    timeoutMs?: number;
    connectTimeoutMs?: number;
    firstByteTimeoutMs?: number;
  }

  /** A dispatcher as the workers run it: woken by the delivery NOTIFY, its safety-net poll far away (10 min). */
  async function dispatcher({
    concurrency = 20,
    perMerchant = 20,
    timeoutMs = 2000,
    connectTimeoutMs = timeoutMs,
    firstByteTimeoutMs = timeoutMs,
  }: DispatcherSetup = {}): Promise<WebhookDispatcher> {
    const service = new WebhookDeliveryService(repo, logger, {
      timeoutMs,
      connectTimeoutMs,
      firstByteTimeoutMs,
      maxResponseBytes: 4096,
      allowLoopback: true,
      allowPrivateHosts: [],
      leaseGraceMs: 500,
    });
    const d = new WebhookDispatcher(repo, service, logger, { concurrency, perMerchant, safetyIntervalMs: 600_000 });
    const listener = new PgListener(url.toString()).listen(webhookDeliveryChannel(() => d.wake()));
    await listener.start();
    d.start();
    stops.push(async () => {
      await listener.stop();
      await d.stop();
    });
    return d;
  }

  /** A callback due at `at` (now), of this suite's merchant unless another is given. */
  const newDelivery = (target: string, of = merchantId, at = new Date()) => {
    const id = randomUUID();
    return repo.create(
      {
        eventId: `disbursement.${id}.success`,
        eventType: 'disbursement.succeeded',
        merchantId: of,
        disbursementId: id,
        url: target,
        body: JSON.stringify({ id }),
      },
      at,
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
    const d = await dispatcher({ concurrency: 3, timeoutMs: 500 });
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
    await dispatcher({ concurrency: 4 });
    await dispatcher({ concurrency: 4 });
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
      connectTimeoutMs: 2000,
      firstByteTimeoutMs: 2000,
      maxResponseBytes: 4096,
      allowLoopback: true,
      allowPrivateHosts: [],
      leaseGraceMs: 500,
    });
    const d = new WebhookDispatcher(repo, service, logger, {
      concurrency: 5,
      perMerchant: 5,
      safetyIntervalMs: 600_000,
    });
    const delivery = await newDelivery(target.url);
    expect((await d.dispatchDue()).dispatched).toBe(1);
    await d.stop(); // waits for the attempt in flight
    const retryAt = (await repo.findWithAttempts(delivery.id))?.nextAttemptAt as Date;
    expect(retryAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await d.dispatchDue()).toEqual({ dispatched: 0, nextDueAt: retryAt });
  });

  describe('fair between merchants', () => {
    const PER_MERCHANT = 5;
    const merchant = async () => (await createMerchant(prisma)).merchant.id;

    const many = async (n: number, of: number, target: string) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await newDelivery(target, of)).id);
      return ids;
    };

    /** The most attempts of `merchantId` leased at once (in flight in any process), sampled until stopped. */
    function watchLeases(merchantId: number): { most: () => number; stop: () => void } {
      let most = 0;
      let on = true;
      void (async () => {
        while (on) {
          const [{ n }] = await pool
            .query<{ n: number }>(
              `SELECT count(*)::int AS n FROM webhook_deliveries WHERE merchant_id = $1 AND status = 'delivering' AND lease_until >= now()`,
              [merchantId],
            )
            .then((r) => r.rows);
          most = Math.max(most, n);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      return { most: () => most, stop: () => void (on = false) };
    }

    /** When the first of these deliveries' attempts ended (given up), or null if none has yet. */
    const firstAttemptEnd = async (ids: string[]): Promise<number | null> => {
      const attempts = await prisma.webhookAttempt.findMany({ where: { deliveryId: { in: ids } } });
      return attempts.length ? Math.min(...attempts.map((a) => a.startedAt.getTime() + a.latencyMs)) : null;
    };

    /**
     * 60 callbacks of one merchant to `stuckUrl`; once they hold every slot they will get, one of
     * another merchant to a receiver that answers. When that one was delivered, and how many
     * requests `stuckTarget` had then received.
     */
    async function stuckThenFresh(
      stuckUrl: string,
      timeouts: Pick<DispatcherSetup, 'connectTimeoutMs' | 'firstByteTimeoutMs'>,
      stuckTarget?: WebhookReceiver,
    ) {
      const [stuck, other] = [await merchant(), await merchant()];
      const fine = await receiver();
      await dispatcher({ perMerchant: PER_MERCHANT, timeoutMs: 6000, ...timeouts });
      const leases = watchLeases(stuck);
      stops.push(async () => leases.stop());
      const stuckIds = await many(60, stuck, stuckUrl);
      await waitFor(async () => leases.most() >= PER_MERCHANT, 5_000, 'the stuck merchant in flight');
      await new Promise((r) => setTimeout(r, 300)); // as many slots as it will ever get

      const fresh = await newDelivery(fine.url, other);
      await waitFor(async () => (await repo.findWithAttempts(fresh.id))?.status === 'delivered', 15_000, 'delivered');
      const heldWhenDelivered = stuckTarget?.requests.length;
      const deliveredAt = (await repo.findWithAttempts(fresh.id))?.deliveredAt?.getTime() as number;
      return { stuckIds, deliveredAt, heldWhenDelivered, leases };
    }

    it("a merchant's 60 callbacks stuck on a server that accepts and never answers: another merchant's fresh callback is delivered before any of them times out, and the stuck merchant holds at most its cap", async () => {
      const tarpit = await receiver(() => 'hang');
      const { stuckIds, deliveredAt, heldWhenDelivered, leases } = await stuckThenFresh(
        tarpit.url,
        { connectTimeoutMs: 1000, firstByteTimeoutMs: 3000 },
        tarpit,
      );
      await waitFor(async () => (await firstAttemptEnd(stuckIds)) !== null, 15_000, 'a stuck attempt given up');

      expect(deliveredAt).toBeLessThan((await firstAttemptEnd(stuckIds)) as number);
      expect(heldWhenDelivered).toBe(PER_MERCHANT);
      expect(leases.most()).toBe(PER_MERCHANT);
    });

    it("a merchant's 60 callbacks stuck on a host that never accepts the connection: each gives up at the connect timeout, and another merchant's callback is delivered before the first does", async () => {
      const unaccepting = await UnacceptingListener.start();
      stops.push(() => unaccepting.close());
      const { stuckIds, deliveredAt, leases } = await stuckThenFresh(unaccepting.url, {
        connectTimeoutMs: 1500,
        firstByteTimeoutMs: 3000,
      });
      await waitFor(
        async () =>
          (await prisma.webhookAttempt.count({ where: { deliveryId: { in: stuckIds } } })) >= 2 * PER_MERCHANT,
        20_000,
        'two rounds of stuck attempts given up',
      );

      expect(deliveredAt).toBeLessThan((await firstAttemptEnd(stuckIds)) as number);
      const attempts = await prisma.webhookAttempt.findMany({ where: { deliveryId: { in: stuckIds } } });
      for (const a of attempts) {
        expect(a).toMatchObject({ statusCode: null, outcome: 'retry', error: expect.stringMatching(/connect/) });
        expect(a.latencyMs).toBeGreaterThanOrEqual(1400);
        expect(a.latencyMs).toBeLessThan(3000);
      }
      expect(leases.most()).toBe(PER_MERCHANT);
    });

    it('over its cap a merchant waits and loses nothing: two workers processes never hold more than its cap between them, and each of its 60 callbacks is attempted once, on the usual schedule', async () => {
      const stuck = await merchant();
      const tarpit = await receiver(() => 'hang');
      const setup = { perMerchant: PER_MERCHANT, connectTimeoutMs: 1000, firstByteTimeoutMs: 300, timeoutMs: 3000 };
      const [a, b] = [await dispatcher(setup), await dispatcher(setup)];
      let most = 0;
      const sample = setInterval(() => (most = Math.max(most, a.active + b.active)), 2);
      stops.push(async () => clearInterval(sample));

      const ids = await many(60, stuck, tarpit.url);
      await waitFor(
        async () => (await prisma.webhookAttempt.count({ where: { deliveryId: { in: ids } } })) === 60,
        30_000,
        'sixty attempts',
      );

      expect(most).toBe(PER_MERCHANT);
      expect(new Set(tarpit.requests.map((r) => r.headers['x-callback-event-id'])).size).toBe(60);
      const deliveries = await prisma.webhookDelivery.findMany({
        where: { id: { in: ids } },
        include: { attempts: true },
      });
      for (const d of deliveries) {
        expect(d).toMatchObject({ status: 'pending', attemptCount: 1 });
        expect(d.attempts).toMatchObject([{ attemptNo: 1, outcome: 'retry', error: expect.stringMatching(/answer/) }]);
        // The first retry 30 s ± 20 % after the attempt ended (give or take the record's few ms), as for any callback.
        const ended = d.attempts[0].startedAt.getTime() + d.attempts[0].latencyMs;
        const wait = (d.nextAttemptAt as Date).getTime() - ended;
        expect(wait).toBeGreaterThanOrEqual(24_000);
        expect(wait).toBeLessThanOrEqual(36_000 + 50);
      }
    });

    it("claims go round the merchants: every merchant's oldest due callback before anyone's second, the fewest in flight first, none past its cap", async () => {
      const [busy, some, one] = [await merchant(), await merchant(), await merchant()];
      const target = 'http://127.0.0.1:9/callback';
      const base = Date.now() - 60_000;
      const at = (s: number) => new Date(base + s * 1000);
      const busyIds: string[] = [];
      for (let i = 0; i < 10; i++) busyIds.push((await newDelivery(target, busy, at(i))).id); // the oldest
      const someIds = [(await newDelivery(target, some, at(20))).id, (await newDelivery(target, some, at(21))).id];
      someIds.push((await newDelivery(target, some, at(22))).id);
      await newDelivery(target, one, at(30));
      const count = (claimed: { merchantId: number }[], m: number) => claimed.filter((d) => d.merchantId === m).length;

      const first = await repo.claimDue(new Date(), 6, 60_000, PER_MERCHANT);
      expect([count(first.claimed, busy), count(first.claimed, some), count(first.claimed, one)]).toEqual([3, 2, 1]);
      expect(
        first.claimed
          .filter((d) => d.merchantId === busy)
          .map((d) => d.id)
          .sort(),
      ).toEqual(busyIds.slice(0, 3).sort());

      // busy has 3 in flight, some 2: some's last comes before busy's fourth; busy stops at its cap.
      const second = await repo.claimDue(new Date(), 10, 60_000, PER_MERCHANT);
      expect(second.claimed.map((d) => d.id).sort()).toEqual([someIds[2], busyIds[3], busyIds[4]].sort());
      expect(second.waiting).toBe(true); // busy's other five wait for a free slot of its own

      const third = await repo.claimDue(new Date(), 10, 60_000, PER_MERCHANT);
      expect(third.claimed).toEqual([]);
      expect(third.waiting).toBe(true);
    });
  });
});
