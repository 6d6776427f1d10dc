import { randomUUID } from 'node:crypto';
import { verifySignatureHeader } from '@pay/domain';
import {
  createPgPool,
  createPrismaClient,
  type Payin,
  PayinExpiryRepository,
  PayinRepository,
  type PrismaClient,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { createLogger } from '@pay/platform';
import { createMerchant, WebhookReceiver } from '@pay/testing';
import type { Pool } from 'pg';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service';
import { PayinExpiryLoop } from './payin-expiry.loop';

describe('pay-in callbacks, workers side: the expiry scan and delivery (real Postgres, real HTTP receiver)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let payins: PayinRepository;
  let deliveries: WebhookDeliveryRepository;
  let receiver: WebhookReceiver | undefined;
  let now: Date;
  const clock = () => now;
  const logger = createLogger('test', 'fatal');
  const service = () =>
    new WebhookDeliveryService(
      deliveries,
      logger,
      {
        timeoutMs: 2000,
        connectTimeoutMs: 2000,
        firstByteTimeoutMs: 2000,
        maxResponseBytes: 4096,
        allowLoopback: true,
        allowPrivateHosts: [],
        leaseGraceMs: 1000,
      },
      clock,
      () => 0.5,
    );
  const scanner = () => new PayinExpiryLoop(new PayinExpiryRepository(pool), () => undefined, logger, 30_000, clock);

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 6);
    payins = new PayinRepository(prisma);
    deliveries = new WebhookDeliveryRepository(pool);
  });
  beforeEach(() => {
    now = new Date();
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  async function merchantWith(defaultUrl: string | null) {
    const { merchant } = await createMerchant(prisma);
    const admin = new MerchantAdmin(prisma);
    if (defaultUrl) await admin.setPayinCallbackUrl(merchant.id, defaultUrl);
    return { merchant, secret: (await admin.webhookSecret(merchant.id)).secret };
  }
  function newPayin(
    merchant: { id: number; nmid: string },
    expiresAt: Date,
    notifyUrl: string | null = null,
  ): Promise<Payin> {
    const platformTrxId = `QR${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    return payins.create({
      merchantId: merchant.id,
      merchantTrxId: `ORD-${randomUUID().slice(0, 8)}`,
      platformTrxId,
      amount: 5_000_000n,
      fee: 50_000n,
      feePctMilli: 700,
      feeFixed: 15_000n,
      nmid: merchant.nmid,
      qrisPayload: '000201',
      expiresAt,
      notifyUrl,
    });
  }
  const deliveriesOf = (merchantId: number) =>
    prisma.webhookDelivery.findMany({ where: { merchantId }, orderBy: { createdAt: 'asc' } });

  it('expires codes past their expiry once, even with two scans at once; each gets one signed payin.expired; no URL, no callback', async () => {
    receiver = await WebhookReceiver.start();
    const { merchant, secret } = await merchantWith(receiver.url);
    const { merchant: silent } = await merchantWith(null);
    const past = new Date(now.getTime() - 60_000);
    const expired = await newPayin(merchant, past);
    const stillValid = await newPayin(merchant, new Date(now.getTime() + 600_000));
    const noUrl = await newPayin(silent, past);

    const rounds = await Promise.all([scanner().scan(), scanner().scan()]);
    // Other suites' codes may expire too (shared database): count ours.
    const [mine, theirs] = await Promise.all([deliveriesOf(merchant.id), deliveriesOf(silent.id)]);
    expect(rounds.reduce((n, r) => n + r.expired, 0)).toBeGreaterThanOrEqual(2);
    expect(mine.map((d) => [d.eventId, d.eventType, d.url])).toEqual([
      [`payin.${expired.id}.expired`, 'payin.expired', receiver.url],
    ]);
    expect(theirs).toHaveLength(0);
    const statuses = await prisma.payin.findMany({
      where: { id: { in: [expired.id, stillValid.id, noUrl.id] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(statuses.map((p) => [p.id, p.status]))).toEqual({
      [expired.id]: 'expired',
      [stillValid.id]: 'pending',
      [noUrl.id]: 'expired',
    });
    expect(await scanner().scan()).toEqual({ expired: 0, callbacks: 0, resolved: 0, held: 0 }); // idempotent: nothing left

    // Due at once, as any other delivery; one attempt delivers it, signed with the merchant's secret.
    expect(await service().attempt(mine[0].id)).toBe('delivered');
    const [req] = receiver.requests;
    expect(req.headers['x-callback-event-type']).toBe('payin.expired');
    expect(req.headers['x-callback-event-id']).toBe(`payin.${expired.id}.expired`);
    expect(
      verifySignatureHeader(
        req.headers['x-callback-signature'] as string,
        req.rawBody,
        secret,
        Math.floor(now.getTime() / 1000),
      ),
    ).toBe(true);
    expect(JSON.parse(req.rawBody)).toMatchObject({
      id: `payin.${expired.id}.expired`,
      type: 'payin.expired',
      data: {
        idMerchant: merchant.id,
        merchantTrxId: expired.merchantTrxId,
        amount: 50000,
        netAmount: 49500,
        status: 'expired',
        success_at: null,
        issuer: null,
        paidAt: null,
        additionalInfo: { rrn: null, nmid: merchant.nmid },
      },
    });
    expect(JSON.parse(req.rawBody).data.expiredAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("the scan's lookup can read the partial index of pending codes by expiry (an idle scan is one index probe)", async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off'); // the test table is small: ask whether the index fits, not what is cheapest here
      const { rows } = await client.query(
        `EXPLAIN SELECT id FROM payins WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT 500 FOR UPDATE SKIP LOCKED`,
      );
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('payins_pending_expires_at_idx');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('a paid pay-in (acquirer notification) is delivered as payin.succeeded to its own notifyUrl, retried like any callback, and resendable', async () => {
    receiver = await WebhookReceiver.start((n) => ({ status: n === 0 ? 503 : 200 }));
    const { merchant, secret } = await merchantWith('https://93.184.216.35/default-not-used');
    const payin = await newPayin(merchant, new Date(now.getTime() + 600_000), receiver.url);
    const notice = {
      acquirerReference: `ACQ-${randomUUID()}`,
      platformTrxId: payin.platformTrxId,
      amount: 5_000_000n,
      status: 'success' as const,
      rrn: '123456789012',
      issuer: 'OVO',
      paidAt: new Date(now.getTime() - 1000),
      failureReason: null,
      sandbox: false,
    };
    expect((await payins.applyNotice(notice, '{}', now, 300_000)).outcome).toBe('accepted');
    expect((await payins.applyNotice(notice, '{}', now, 300_000)).outcome).toBe('duplicate');
    const [d, ...more] = await deliveriesOf(merchant.id);
    expect(more).toHaveLength(0);
    expect(d).toMatchObject({ eventType: 'payin.succeeded', url: receiver.url });

    const s = service();
    expect(await s.attempt(d.id)).toBe('retry');
    now = (await deliveries.findWithAttempts(d.id))?.nextAttemptAt as Date;
    expect(await s.attempt(d.id)).toBe('delivered');
    expect(receiver.requests).toHaveLength(2);
    for (const r of receiver.requests) {
      expect(r.rawBody).toBe(d.body); // the same bytes on every attempt
      expect(
        verifySignatureHeader(
          r.headers['x-callback-signature'] as string,
          r.rawBody,
          secret,
          Math.floor(now.getTime() / 1000),
        ),
      ).toBe(true);
    }
    expect(JSON.parse(d.body).data).toMatchObject({
      status: 'success',
      issuer: 'OVO',
      paidAt: notice.paidAt.toISOString(),
      additionalInfo: { rrn: '123456789012' },
    });

    expect(await deliveries.resend(d.id, now)).toMatchObject({
      eventId: `payin.${payin.id}.success`,
      status: 'pending',
    });
    expect(await s.attempt(d.id)).toBe('delivered');
    expect(receiver.requests.map((r) => r.headers['x-callback-event-id'])).toEqual(
      Array(3).fill(`payin.${payin.id}.success`),
    );
    expect(await deliveries.findWithAttempts(d.id)).toMatchObject({
      status: 'delivered',
      attemptCount: 3,
      resendCount: 1,
    });
  });
});
