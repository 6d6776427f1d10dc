import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MerchantAdmin } from '@pay/backoffice';
import { LocalStack, testS3, testStackBus } from '@pay/devstack';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant, repoRoot, waitFor, WebhookReceiver } from '@pay/testing';

const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string) => boolean;
};

interface LoggedEvent {
  sequence: string;
  eventId: string;
  eventType: string;
  body: string;
  signature: string;
}

/**
 * A merchant whose receiver drops callbacks at random (answers 400: final, never retried) recovers
 * every event from its event log, as the API guide says: from the last sequence it holds without
 * a gap, following nextAfter until hasMore is false. Through the real processes, on either bus.
 */
describe('the event log: callbacks dropped, every event recovered (processes, real Postgres, bus)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let receiver: WebhookReceiver;

  // A seeded generator: the same drops on every run (EVENT_LOG_SEED explores others).
  let state = Number(process.env.EVENT_LOG_SEED ?? 45);
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const dropped = new Set<number>();

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}evl:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}evl`),
      env: { BUS_LEASE_TTL_MS: '2000', WEBHOOK_DISPATCH_INTERVAL_MS: '500' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    receiver = await WebhookReceiver.start((n) => {
      if (random() < 0.4) {
        dropped.add(n);
        return { status: 400 };
      }
      return { status: 200 };
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const call = async (method: string, path: string, token: string, body?: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
      method,
      headers: { token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };

  it('pay-ins paid and settled, callbacks dropped at random: the log gives every event once, 1..N, verified', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const admin = new MerchantAdmin(prisma);
    await admin.setPayinCallbackUrl(merchant.id, receiver.url);
    const { secret } = await admin.webhookSecret(merchant.id);

    const payins = 12;
    for (let i = 0; i < payins; i++) {
      const merchantTrxId = `EVL-${randomUUID().slice(0, 12)}`;
      expect((await call('POST', 'payin/qris/generate', token, { merchantTrxId, amount: 10000 + i })).status).toBe(200);
      expect((await call('POST', 'payin/qris/sandbox/pay', token, { merchantTrxId })).body.data.status).toBe('success');
    }
    // Recorded by the ledger, then settled now: a settlement.credited to the default URL.
    await waitFor(
      async () =>
        (await prisma.payin.count({ where: { merchantId: merchant.id, ledgerEventId: { not: null } } })) === payins,
      30_000,
      'the pay-ins recorded by the ledger',
    );
    expect((await call('POST', 'payin/qris/sandbox/settle', token, {})).status).toBe(200);
    const total = payins + 1;
    await waitFor(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { merchantId: merchant.id, status: { in: ['delivered', 'failed'] } },
        })) === total,
      30_000,
      'every callback delivered or refused',
    );

    // What the merchant processed from its callbacks: the verified, accepted ones.
    const processed = new Map<number, string>();
    receiver.requests.forEach((r, n) => {
      if (dropped.has(n)) return;
      expect(verifyCallback(r.rawBody, r.headers['x-callback-signature'] as string, secret)).toBe(true);
      const body = JSON.parse(r.rawBody) as { id: string; sequence: number };
      processed.set(body.sequence, body.id);
    });
    expect(dropped.size).toBeGreaterThan(0);
    expect(processed.size).toBeLessThan(total);

    // Recovery: after the last sequence held without a gap, page by page.
    let after = 0;
    while (processed.has(after + 1)) after++;
    const recovered: LoggedEvent[] = [];
    for (let hasMore = true; hasMore;) {
      const page = await call('GET', `events?after=${after}&limit=4`, token);
      expect(page.status).toBe(200);
      recovered.push(...page.body.data.events);
      hasMore = page.body.data.hasMore;
      after = Number(page.body.data.nextAfter);
    }
    for (const e of recovered) {
      expect(verifyCallback(e.body, e.signature, secret)).toBe(true);
      const body = JSON.parse(e.body) as { id: string; sequence: number };
      expect({ id: body.id, sequence: body.sequence }).toEqual({ id: e.eventId, sequence: Number(e.sequence) });
      // Received both ways: the same event, processed once.
      if (processed.has(body.sequence)) expect(processed.get(body.sequence)).toBe(body.id);
      processed.set(body.sequence, body.id);
    }

    // Every event, 1..N with no gap, each id once; N is every callback written.
    expect([...processed.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(processed.values()).size).toBe(total);
    const types = recovered.map((e) => e.eventType);
    expect(types.every((t) => t === 'payin.succeeded' || t === 'settlement.credited')).toBe(true);
    expect([...processed.values()].filter((id) => id.startsWith('settlement.'))).toHaveLength(1);
    // The dropped ones are failed deliveries the merchant can list (and resend).
    const failed = await call('GET', 'webhooks/deliveries?status=failed&limit=100', token);
    expect(failed.body.data.deliveries).toHaveLength(dropped.size);
  }, 120_000);
});
