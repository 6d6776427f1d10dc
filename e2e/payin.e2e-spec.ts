import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { formatAmount } from '@pay/domain';
import { createPrismaClient, type PrismaClient, SettlementPlanner, verifyLedger } from '@pay/persistence';
import { createMerchant, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';

/**
 * QRIS pay-ins through the real processes: generate (the SNAP simulator as the acquirer,
 * QRIS_ACQUIRER=snap), pay (the sandbox payer, through the simulator and its notification), inquire, settle.
 */
describe('QRIS pay-in end to end (processes, real Postgres and Redis)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let planner: SettlementPlanner;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}pay:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}pay`),
      env: { BUS_LEASE_TTL_MS: '2000', SETTLEMENT_SCAN_INTERVAL_MS: '500', PAYIN_EXPIRY_SCAN_INTERVAL_MS: '500' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    planner = new SettlementPlanner(prisma);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = async (path: string, token: string, body?: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  const balance = async (token: string) =>
    (await api('balance', token)).body.data.balance as { available: number; pending: number };
  async function payQris(token: string, amount: number) {
    const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
    expect((await api('qris/generate', token, { merchantTrxId, amount })).status).toBe(200);
    expect((await api('qris/sandbox/pay', token, { merchantTrxId })).body.data.status).toBe('success');
    return merchantTrxId;
  }
  /** Net of the merchant's successful, unsettled pay-ins, from the pay-in rows (spec 2.3 rule 1). */
  async function expectedPending(merchantId: number): Promise<bigint> {
    const rows = await prisma.payin.findMany({
      where: { merchantId, status: 'success', settlementId: null },
      select: { amount: true, fee: true },
    });
    return rows.reduce((sum, r) => sum + r.amount - r.fee, 0n);
  }
  const ledgerCaughtUp = async (merchantId: number) =>
    (await prisma.payin.count({ where: { merchantId, status: 'success', ledgerEventId: null } })) === 0 &&
    (await prisma.outbox.count({ where: { key: String(merchantId), publishedAt: null } })) === 0;

  it('generate -> pay -> inquiry success with rrn -> pending rises by the net -> settle -> available rises by the same', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const merchantTrxId = await payQris(token, 50000);
    const inquiry = await api('qris/inquiry', token, { merchantTrxId });
    expect(inquiry.body).toMatchObject({
      status: true,
      message: 'Query success',
      data: {
        merchantTrxId,
        amount: 50000,
        fee: { amount: 500 },
        netAmount: 49500,
        status: 'success',
        additionalInfo: { rrn: expect.stringMatching(/^\d{12}$/), nmid: merchant.nmid },
      },
    });
    // The acquirer's payment, notified once and answered 2005200.
    const payin = await prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(payin.acquirerReference).toMatch(/^QR/);
    const sent = (await stack.snap?.notifications())?.filter((n) => n.referenceNo === payin.acquirerReference);
    expect(sent?.map((n) => n.responseCode)).toEqual(['2005200']);
    await waitFor(async () => (await balance(token)).pending === 49500, 15_000, 'pending');
    expect(await balance(token)).toEqual({ available: 0, pending: 49500 });

    const planned = await planner.plan(merchant.id, new Date());
    expect(planned).toMatchObject({ requested: true, payinCount: 1 });
    await waitFor(async () => (await balance(token)).available === 49500, 15_000, 'settlement');
    expect(await balance(token)).toEqual({ available: 49500, pending: 0 });
    const settlement = await prisma.settlement.findUniqueOrThrow({ where: { id: planned?.settlementId } });
    expect(settlement).toMatchObject({
      merchantId: merchant.id,
      payinCount: 1,
      gross: 5_000_000n,
      fees: 50_000n,
      amount: 4_950_000n,
    });
    expect((await prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id } })).settlementId).toBe(
      settlement.id,
    );

    // Re-running the same cut-off changes nothing.
    expect(await planner.plan(merchant.id, planned?.cutoffAt as Date)).toMatchObject({ requested: false });
    await new Promise((r) => setTimeout(r, 500));
    expect(await prisma.settlement.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(await balance(token)).toEqual({ available: 49500, pending: 0 });
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  it('a code paid at the acquirer whose notification never came: the workers ask before it expires, and it succeeds once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
    const generated = await api('qris/generate', token, { merchantTrxId, amount: 20000 });
    expect(generated.status).toBe(200);
    const { platformTrxId } = generated.body.data as { platformTrxId: string };
    const paid = await stack.snap?.control('qris/pay', { partnerReferenceNo: platformTrxId, mode: 'never' });
    expect(paid?.status).toBe(200);
    expect((await api('qris/inquiry', token, { merchantTrxId })).body.data.status).toBe('pending');
    // Its expiry, brought forward (a minute is the shortest a merchant may ask for), after the payment.
    await new Promise((r) => setTimeout(r, 300));
    await prisma.$executeRaw`UPDATE payins SET expires_at = now() - interval '100 milliseconds' WHERE platform_trx_id = ${platformTrxId}`;
    await waitFor(
      async () => (await api('qris/inquiry', token, { merchantTrxId })).body.data.status === 'success',
      15_000,
      'resolved by the query',
    );
    await waitFor(async () => (await balance(token)).pending === 19710, 15_000, 'pending');
    const payin = await prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(payin.acquirerReference).toBe(paid?.body.referenceNo);
    expect(
      await prisma.outbox.count({
        where: { topic: 'ledger.commands.v1', payload: { path: ['payinId'], equals: payin.id } },
      }),
    ).toBe(1);
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  it('the repeatable settlement job settles pay-ins that are due on the merchant schedule (T+1 at 10:00 WIB)', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const old = await payQris(token, 100000);
    const today = await payQris(token, 20000);
    await waitFor(() => ledgerCaughtUp(merchant.id), 15_000, 'pay-ins recorded');
    // The first payment happened two days ago: due under T+1; today's is not due yet.
    await prisma.payin.update({
      where: { merchantId_merchantTrxId: { merchantId: merchant.id, merchantTrxId: old } },
      data: { successAt: new Date(Date.now() - 2 * 86_400_000) },
    });
    await waitFor(async () => (await balance(token)).available > 0, 15_000, 'the scheduled settlement');
    expect(await balance(token)).toEqual({ available: 99150, pending: 19710 });
    const settled = await prisma.payin.findMany({
      where: { merchantId: merchant.id },
      select: { merchantTrxId: true, settlementId: true },
    });
    expect(settled.find((p) => p.merchantTrxId === old)?.settlementId).not.toBeNull();
    expect(settled.find((p) => p.merchantTrxId === today)?.settlementId).toBeNull();
  });

  it('pending always equals the net of successful unsettled pay-ins, after every step of a random sequence', async () => {
    const { merchant, token } = await createMerchant(prisma);
    let seed = Number(process.env.E2E_SEED ?? Date.now() % 100000);
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const steps: string[] = [];
    for (let i = 0; i < 14; i++) {
      const roll = random();
      if (roll < 0.5) {
        const amount = 1000 + Math.floor(random() * 500_000) + Math.floor(random() * 100) / 100;
        await payQris(token, amount);
        steps.push(`pay ${amount}`);
      } else if (roll < 0.65) {
        const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
        await api('qris/generate', token, { merchantTrxId, amount: 25000 });
        await api('qris/sandbox/pay', token, { merchantTrxId, status: 'failed' });
        steps.push('failed payment');
      } else if (roll < 0.75) {
        await api('qris/generate', token, { merchantTrxId: `ORD-${randomUUID().slice(0, 12)}`, amount: 30000 });
        steps.push('unpaid code');
      } else {
        await waitFor(() => ledgerCaughtUp(merchant.id), 15_000, 'ledger');
        const p = await planner.plan(merchant.id, new Date());
        if (p)
          await waitFor(
            async () => (await prisma.settlement.count({ where: { id: p.settlementId } })) === 1,
            15_000,
            'settlement',
          );
        steps.push(`settle ${p?.payinCount ?? 0}`);
      }
      await waitFor(() => ledgerCaughtUp(merchant.id), 15_000, 'ledger');
      const expected = await expectedPending(merchant.id);
      const projection = await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } });
      expect({ steps, pending: projection.pending }).toEqual({ steps, pending: expected });
      expect((await balance(token)).pending).toBe(formatAmount(expected));
    }
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });
});
