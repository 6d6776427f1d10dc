import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SANDBOX_ACCOUNTS } from '@pay/bank-rail';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { createMerchant, fundMerchant, repoRoot, waitFor, WebhookReceiver } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';

const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string) => boolean;
};

/** Final disbursement statuses reach the merchant's notifyUrl through the real processes. */
describe('webhook delivery end to end (processes, real Postgres, Redis and HTTP)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}whk:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}whk`),
      env: {
        BUS_LEASE_TTL_MS: '2000',
        PAYOUT_POLL_INTERVAL_MS: '100',
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_LEASE_GRACE_MS: '500',
        WEBHOOK_DISPATCH_INTERVAL_MS: '200',
      },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const post = async (path: string, token: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/disbursement/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };
  async function transfer(token: string, notifyUrl: string, accountNo = '1234567890', bankCode = 'BCA') {
    const inq = await post('account-inquiry', token, {
      merchantTrxId: `INV-${randomUUID().slice(0, 12)}`,
      accountNo,
      bankCode,
      amount: 100000,
    });
    const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
    const res = await post('transfer', token, { ...fields, notifyUrl });
    expect(res.status).toBe(200);
    return fields.merchantTrxId as string;
  }

  it('a local receiver gets exactly one signed delivery per final status, success and failure', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const { secret } = await new MerchantAdmin(prisma).webhookSecret(merchant.id);

    const ok = await transfer(token, receiver.url);
    const bad = await transfer(token, receiver.url, SANDBOX_ACCOUNTS.rejected.bank);
    await waitFor(async () => receiver.requests.length >= 2, 20_000, 'two callbacks');
    await new Promise((r) => setTimeout(r, 1000)); // nothing else may arrive
    expect(receiver.requests).toHaveLength(2);

    for (const req of receiver.requests)
      expect(verifyCallback(req.rawBody, req.headers['x-callback-signature'] as string, secret)).toBe(true);
    const bodies = receiver.requests.map((r) => JSON.parse(r.rawBody)).sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies[0]).toMatchObject({
      type: 'disbursement.failed',
      data: {
        merchantTrxId: bad,
        status: 'failed',
        fee: { amount: 0 },
        totalAmount: 100000,
        success_at: null,
        failureReason: 'Rejected by the beneficiary bank (do not honor) (4031705)',
      },
    });
    expect(bodies[1]).toMatchObject({
      type: 'disbursement.succeeded',
      data: { merchantTrxId: ok, status: 'success', fee: { amount: 2500 }, totalAmount: 102500 },
    });
    expect(bodies[1].data.success_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { merchantId: merchant.id } });
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('the workers process killed mid-delivery: after restart the delivery completes, with the same event id', async () => {
    let hang = true;
    const receiver = await WebhookReceiver.start(() => (hang ? 'hang' : { status: 200 }));
    receivers.push(receiver);
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);

    await transfer(token, receiver.url);
    await waitFor(async () => receiver.requests.length === 1, 20_000, 'the first attempt reaching the receiver');
    await stack.kill('workers');
    const inFlight = await prisma.webhookDelivery.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(inFlight.status).toBe('delivering');

    hang = false;
    await stack.startService('workers');
    await waitFor(
      async () =>
        (await prisma.webhookDelivery.findFirstOrThrow({ where: { merchantId: merchant.id } })).status === 'delivered',
      20_000,
      'delivered after restart',
    );
    expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.requests.map((r) => r.headers['x-callback-event-id']))).toEqual(
      new Set([inFlight.eventId]),
    );
  });
});
