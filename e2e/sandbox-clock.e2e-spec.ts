import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MerchantAdmin } from '@pay/backoffice';
import { LocalStack, testS3, testStackBus } from '@pay/devstack';
import { settlementDueAt, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@pay/domain';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant, repoRoot, waitFor, WebhookReceiver } from '@pay/testing';

const DAY_S = 86_400;

/**
 * The sandbox clock (issue 45, part 4) through the real processes: a merchant on T+2 pays a code
 * (sandbox payer), leaves another unpaid, and its callback URL answers 500 to everything; one
 * advance of 3 days, walked by the workers in seconds, settles the pay-in at its Jakarta cut-off
 * (pending -> available, the settlement row), expires the code at its expiry and runs the whole
 * callback retry schedule of both callbacks, each attempt recorded at the clock time it was
 * scheduled for, until dead-lettered. Another merchant, the same set-up, no clock: nothing of it moves.
 */
describe('sandbox clock end to end (processes, real Postgres, Redis and HTTP)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}clk:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}clk`),
      env: { BUS_LEASE_TTL_MS: '2000' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = async (method: string, path: string, token: string, body?: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
      method,
      headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A merchant on T+2 at 10:00 WIB whose callbacks all fail (500): one paid code, one left to expire. */
  async function merchantWithWork() {
    const receiver = await WebhookReceiver.start(() => ({ status: 500 }));
    receivers.push(receiver);
    const { merchant, token } = await createMerchant(prisma);
    const admin = new MerchantAdmin(prisma);
    await admin.setSettlementSchedule(merchant.id, { delayDays: 2, hour: 10 });
    await admin.setPayinCallbackUrl(merchant.id, receiver.url);
    const paidTrx = `PAID-${randomUUID().slice(0, 8)}`;
    const unpaidTrx = `OPEN-${randomUUID().slice(0, 8)}`;
    expect((await api('POST', 'payin/qris/generate', token, { merchantTrxId: paidTrx, amount: 50000 })).status).toBe(
      200,
    );
    const unpaid = await api('POST', 'payin/qris/generate', token, {
      merchantTrxId: unpaidTrx,
      amount: 20000,
      expirySeconds: 900,
    });
    expect(unpaid.status).toBe(200);
    expect((await api('POST', 'payin/qris/sandbox/pay', token, { merchantTrxId: paidTrx })).body.data.status).toBe(
      'success',
    );
    // Recorded by the ledger (net 49,500 pending), and the callback's first attempt made (real time, 500).
    await waitFor(
      async () => (await api('GET', 'payin/balance', token)).body.data.balance.pending === 49500,
      20_000,
      'the pay-in recorded',
    );
    const payin = () =>
      prisma.payin.findUniqueOrThrow({
        where: { merchantId_merchantTrxId: { merchantId: merchant.id, merchantTrxId: paidTrx } },
      });
    await waitFor(
      async () =>
        (await prisma.webhookAttempt.count({ where: { delivery: { payinId: (await payin()).id } } })) === 1 &&
        (await prisma.webhookDelivery.count({ where: { merchantId: merchant.id, status: 'delivering' } })) === 0,
      20_000,
      'the first attempt of payin.succeeded',
    );
    return { merchant, token, receiver, paidTrx, unpaidTrx, payin };
  }

  it('one advance settles a T+2 pay-in at its cut-off, expires a code and runs every callback retry, in under a minute; another merchant untouched', async () => {
    const a = await merchantWithWork();
    const b = await merchantWithWork();
    const bBefore = {
      deliveries: await prisma.webhookDelivery.findMany({
        where: { merchantId: b.merchant.id },
        orderBy: { id: 'asc' },
      }),
      attempts: await prisma.webhookAttempt.count({ where: { delivery: { merchantId: b.merchant.id } } }),
      requests: b.receiver.requests.length,
    };

    // On real time until advanced.
    const before = await api('GET', 'sandbox/clock', a.token);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ aheadSeconds: 0, status: 'ready', advancingTo: null });

    const started = Date.now();
    const advanced = await api('POST', 'sandbox/clock/advance', a.token, { seconds: 3 * DAY_S });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ status: true, message: 'Clock advancing', data: { status: 'advancing' } });
    const target = new Date(advanced.body.data.advancingTo as string);

    await waitFor(
      async () => (await api('GET', 'sandbox/clock', a.token)).body.data.status === 'ready',
      60_000,
      'the advance walked',
    );
    const wall = Date.now() - started;
    expect(wall).toBeLessThan(60_000);
    const clock = (await api('GET', 'sandbox/clock', a.token)).body.data;
    expect(clock).toMatchObject({ now: target.toISOString(), status: 'ready', advancingTo: null });
    expect(clock.aheadSeconds).toBeGreaterThan(3 * DAY_S - 120);

    // The settlement: at T+2 10:00 WIB of the day it was paid, pending -> available.
    const paid = await a.payin();
    expect(paid.settlementId).not.toBeNull();
    const settlement = await prisma.settlement.findUniqueOrThrow({ where: { id: paid.settlementId as string } });
    const dueAt = settlementDueAt(paid.successAt as Date, 2, 10);
    expect(settlement).toMatchObject({ merchantId: a.merchant.id, amount: 49_500_00n, payinCount: 1 });
    // Its cut-off: the Jakarta midnight after the payment (T+2 at 10:00 is a day and 10 hours after it).
    expect((settlement.cutoffAt as Date).getTime()).toBe(dueAt.getTime() - (DAY_S + 10 * 3600) * 1000);
    expect((await api('GET', 'payin/balance', a.token)).body.data.balance).toEqual({ available: 49500, pending: 0 });

    // The unpaid code expired at its expiry, on the clock.
    const unpaid = await prisma.payin.findUniqueOrThrow({
      where: { merchantId_merchantTrxId: { merchantId: a.merchant.id, merchantTrxId: a.unpaidTrx } },
    });
    expect(unpaid.status).toBe('expired');

    // Every callback of A: the whole schedule, each attempt at the clock time the one before scheduled, then dead.
    const deliveries = await prisma.webhookDelivery.findMany({
      where: { merchantId: a.merchant.id, payinId: { in: [paid.id, unpaid.id] } },
      include: { attempts: { orderBy: { attemptNo: 'asc' } } },
    });
    expect(deliveries.map((d) => [d.eventType, d.status]).sort()).toEqual([
      ['payin.expired', 'dead'],
      ['payin.succeeded', 'dead'],
    ]);
    for (const d of deliveries) {
      expect(d.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      d.attempts.forEach((attempt, i) => {
        expect(attempt.statusCode).toBe(500);
        if (i === 0) return;
        const previous = d.attempts[i - 1];
        expect(attempt.startedAt).toEqual(previous.nextAttemptAt);
        // The schedule's delay, jittered by at most ±20 % (the first attempt's latency on top, in real time).
        const gap = attempt.startedAt.getTime() - previous.startedAt.getTime();
        expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i - 1] * 0.8);
        expect(gap).toBeLessThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i - 1] * 1.2 + 5_000);
      });
      expect(d.attempts[WEBHOOK_MAX_ATTEMPTS - 1].outcome).toBe('dead');
    }
    const expiredFirst = deliveries.find((d) => d.eventType === 'payin.expired')?.attempts[0];
    expect(expiredFirst?.startedAt).toEqual(unpaid.expiresAt);
    expect(
      a.receiver.requests.filter((r) => String(r.headers['x-callback-event-type']).startsWith('payin.')),
    ).toHaveLength(2 * WEBHOOK_MAX_ATTEMPTS);
    // Signed in real time (the receiver checks the timestamp against its own clock), whatever the clock reads.
    for (const r of a.receiver.requests)
      expect(Math.abs(Number(r.headers['x-callback-timestamp']) * 1000 - r.receivedAt.getTime())).toBeLessThan(60_000);

    // B: nothing moved. Its pay-in pending, unsettled; its code pending; its callbacks as they were.
    expect((await api('GET', 'payin/balance', b.token)).body.data.balance).toEqual({ available: 0, pending: 49500 });
    expect((await b.payin()).settlementId).toBeNull();
    expect(
      (
        await prisma.payin.findUniqueOrThrow({
          where: { merchantId_merchantTrxId: { merchantId: b.merchant.id, merchantTrxId: b.unpaidTrx } },
        })
      ).status,
    ).toBe('pending');
    expect(
      await prisma.webhookDelivery.findMany({ where: { merchantId: b.merchant.id }, orderBy: { id: 'asc' } }),
    ).toEqual(bBefore.deliveries);
    expect(await prisma.webhookAttempt.count({ where: { delivery: { merchantId: b.merchant.id } } })).toBe(
      bBefore.attempts,
    );
    expect(b.receiver.requests).toHaveLength(bBefore.requests);
    expect((await api('GET', 'sandbox/clock', b.token)).body.data).toMatchObject({ aheadSeconds: 0 });

    // Back on real time.
    const reset = await api('DELETE', 'sandbox/clock', a.token);
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ aheadSeconds: 0, status: 'ready' });
  });

  it('refuses an advance that is not exactly one of seconds and to, or not ahead of the clock', async () => {
    const { token } = await createMerchant(prisma);
    const bad = [
      [{}, 'seconds'],
      [{ seconds: 60, to: new Date(Date.now() + 120_000).toISOString() }, 'to'],
      [{ seconds: 0 }, 'seconds'],
      [{ seconds: 31 * DAY_S }, 'seconds'],
      [{ to: new Date(Date.now() - 60_000).toISOString() }, 'to'],
      [{ to: new Date(Date.now() + 31 * DAY_S * 1000).toISOString() }, 'to'],
      [{ to: 'tomorrow' }, 'to'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await api('POST', 'sandbox/clock/advance', token, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api('GET', 'sandbox/clock', token)).body.data).toMatchObject({ aheadSeconds: 0, status: 'ready' });
  });
});
