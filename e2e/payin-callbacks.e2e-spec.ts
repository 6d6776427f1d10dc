import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { createMerchant, repoRoot, waitFor, WebhookReceiver } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';

const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string) => boolean;
};

/** Pay-in callbacks through the real processes: the gateway writes them, the workers deliver them. */
describe('pay-in callbacks end to end (processes, real Postgres, Redis and HTTP)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}pcb:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}pcb`),
      // The dispatcher's safety net is a minute: a callback within seconds is the commit's NOTIFY waking it.
      env: { BUS_LEASE_TTL_MS: '2000', WEBHOOK_DISPATCH_INTERVAL_MS: '60000', PAYIN_EXPIRY_SCAN_INTERVAL_MS: '500' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = async (path: string, token: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/qris/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };

  it('a paid code (sandbox payer) sends one signed payin.succeeded to its notifyUrl; an expired one, payin.expired to the default URL', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const { merchant, token } = await createMerchant(prisma);
    const admin = new MerchantAdmin(prisma);
    const { secret } = await admin.webhookSecret(merchant.id);

    const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
    const generated = await api('generate', token, { merchantTrxId, amount: 50000, notifyUrl: receiver.url });
    expect(generated.status).toBe(200);
    expect((await api('sandbox/pay', token, { merchantTrxId })).body.data.status).toBe('success');
    await waitFor(async () => receiver.requests.length >= 1, 20_000, 'the payin.succeeded callback');
    const [paid] = receiver.requests;
    expect(paid.headers['x-callback-event-type']).toBe('payin.succeeded');
    expect(verifyCallback(paid.rawBody, paid.headers['x-callback-signature'] as string, secret)).toBe(true);
    expect(JSON.parse(paid.rawBody)).toMatchObject({
      type: 'payin.succeeded',
      data: {
        idMerchant: merchant.id,
        merchantTrxId,
        platformTrxId: generated.body.data.platformTrxId,
        amount: 50000,
        netAmount: 49500,
        status: 'success',
        issuer: 'DANA',
      },
    });

    // A code without notifyUrl, its expiry moved into the past: the scan expires it, the default URL hears.
    await admin.setPayinCallbackUrl(merchant.id, receiver.url);
    const lapsing = `ORD-${randomUUID().slice(0, 12)}`;
    expect((await api('generate', token, { merchantTrxId: lapsing, amount: 20000 })).status).toBe(200);
    await prisma.payin.update({
      where: { merchantId_merchantTrxId: { merchantId: merchant.id, merchantTrxId: lapsing } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await waitFor(async () => receiver.requests.length >= 2, 20_000, 'the payin.expired callback');
    const expired = receiver.requests[1];
    expect(expired.headers['x-callback-event-type']).toBe('payin.expired');
    expect(verifyCallback(expired.rawBody, expired.headers['x-callback-signature'] as string, secret)).toBe(true);
    expect(JSON.parse(expired.rawBody).data).toMatchObject({
      merchantTrxId: lapsing,
      status: 'expired',
      amount: 20000,
    });
    expect((await api('inquiry', token, { merchantTrxId: lapsing })).body.data.status).toBe('expired');

    // Exactly one delivery per event, all delivered. The attempt is recorded after the receiver
    // answered, so the last row may still read 'delivering' for a moment.
    const deliveries = () =>
      prisma.webhookDelivery.findMany({ where: { merchantId: merchant.id }, orderBy: { createdAt: 'asc' } });
    await waitFor(
      async () => (await deliveries()).every((d) => d.status !== 'delivering'),
      10_000,
      'the attempts recorded',
    );
    expect((await deliveries()).map((d) => [d.eventType, d.status])).toEqual([
      ['payin.succeeded', 'delivered'],
      ['payin.expired', 'delivered'],
    ]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests).toHaveLength(2);
  });
});
