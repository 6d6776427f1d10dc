import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  acquirerEnvShape,
  acquirerSection,
  createQrisAcquirer,
  type SnapQrisAcquirer,
  snapEnvShape,
} from '@pay/bank-rail';
import { createPrismaClient, type PrismaClient, SettlementPlanner, trialBalance, verifyLedger } from '@pay/persistence';
import { createMerchant, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';
import { z } from 'zod';
import { merchantApi } from './merchant-api';

/**
 * QRIS refunds (issue 44) through the real processes: the gateway records the refund and waits
 * for the ledger's debit, the workers send it to the acquirer (the SNAP simulator, QRIS_ACQUIRER=snap,
 * service 78), the ledger gives a refused one back. Full and partial refunds, concurrent partials
 * that never exceed the pay-in, a settled pay-in's refund from available, the acquirer refusing;
 * the audit clean and the trial balance balanced after each. Runs on either bus (E2E_BUS_TRANSPORT).
 */
describe('QRIS refunds end to end (processes, real Postgres, the SNAP simulator)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let planner: SettlementPlanner;
  let acquirer: SnapQrisAcquirer;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}pay:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}refunds`),
      env: { BUS_LEASE_TTL_MS: '2000', SETTLEMENT_SCAN_INTERVAL_MS: '500' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    planner = new SettlementPlanner(prisma);
    const sim = stack.snap;
    if (!sim) throw new Error('the stack runs without the SNAP simulator');
    // The same acquirer as the stack's, for a refund made at it out of band.
    const env = z.object({ ...snapEnvShape, ...acquirerEnvShape }).parse({ ...sim.env(), ...sim.acquirerEnv() });
    const made = createQrisAcquirer(acquirerSection(env));
    if (!made) throw new Error('QRIS_ACQUIRER=snap did not make an acquirer');
    acquirer = made;
  });
  afterAll(async () => {
    acquirer?.close();
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = merchantApi(() => stack.gatewayUrl);
  const balance = async (token: string) =>
    (await api('payin/balance', token)).body.data.balance as { available: number; pending: number };
  /** A pay-in paid through the simulator, recorded by the ledger: its merchantTrxId, platformTrxId and net. */
  async function paid(token: string, amount: number) {
    const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
    const before = (await balance(token)).pending;
    const generated = await api('payin/qris/generate', token, { merchantTrxId, amount });
    expect(generated.status).toBe(200);
    expect((await api('payin/qris/sandbox/pay', token, { merchantTrxId })).body.data.status).toBe('success');
    const net = generated.body.data.netAmount as number;
    await waitFor(async () => (await balance(token)).pending === round(before + net), 15_000, 'pay-in recorded');
    return { merchantTrxId, platformTrxId: generated.body.data.platformTrxId as string, net };
  }
  const refund = (token: string, merchantTrxId: string, refundId: string, amount: number) =>
    api('payin/refund', token, { merchantTrxId, refundId, amount, reason: 'e2e' });
  const finalOf = async (token: string, refundId: string) => {
    await waitFor(
      async () => (await api(`payin/refund/${refundId}`, token)).body.data.status !== 'pending',
      20_000,
      `refund ${refundId} final`,
    );
    return (await api(`payin/refund/${refundId}`, token)).body.data;
  };
  /** The merchant's ledger commands all decided, the audit clean for it, the books balanced. */
  async function booksClean(merchantId: number) {
    await waitFor(
      async () => (await prisma.outbox.count({ where: { key: String(merchantId), publishedAt: null } })) === 0,
      15_000,
      'outbox drained',
    );
    await waitFor(
      async () => (await verifyLedger(prisma, { merchantIds: [merchantId] })).breaches.length === 0,
      15_000,
      'audit clean',
    );
    const tb = await trialBalance(prisma);
    expect(tb.totalDebit).toBe(tb.totalCredit);
  }
  const round = (n: number) => Math.round(n * 100) / 100;

  it('a partial, then the rest: each refunded at the acquirer; the first from pending, the rest from pending and, for the kept fee, available', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const first = await paid(token, 50000);
    await planner.plan(merchant.id, new Date());
    await waitFor(async () => (await balance(token)).available === first.net, 15_000, 'settled');
    const payin = await paid(token, 100000);
    const fee = 100000 - payin.net;

    const partial = await refund(token, payin.merchantTrxId, 'RF-PART', 30000);
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({ refundId: 'RF-PART', status: 'pending', amount: 30000 });
    expect(await balance(token)).toEqual({ available: first.net, pending: round(payin.net - 30000) });
    expect(await finalOf(token, 'RF-PART')).toMatchObject({
      status: 'success',
      refundNo: expect.stringMatching(/^RFD/),
    });

    const rest = await refund(token, payin.merchantTrxId, 'RF-REST', 70000);
    expect(rest.status).toBe(200);
    expect(await finalOf(token, 'RF-REST')).toMatchObject({ status: 'success' });
    expect(await balance(token)).toEqual({ available: round(first.net - fee), pending: 0 });
    expect((await api('payin/qris/inquiry', token, { merchantTrxId: payin.merchantTrxId })).body.data).toMatchObject({
      status: 'success',
      refundedAmount: 100000,
      refundableAmount: 0,
    });
    // Nothing left: another refund is refused, and the same request again answers the same refund.
    expect((await refund(token, payin.merchantTrxId, 'RF-MORE', 1)).body.code).toBe('REFUND_AMOUNT_EXCEEDED');
    expect((await refund(token, payin.merchantTrxId, 'RF-PART', 30000)).body.data).toMatchObject({ status: 'success' });
    await booksClean(merchant.id);
  });

  it('concurrent partial refunds of one pay-in never exceed it', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const payin = await paid(token, 100000);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => refund(token, payin.merchantTrxId, `RF-C${i}`, 30000)),
    );
    const codes = results.map((r) => (r.status === 200 ? 'accepted' : r.body.code)).sort();
    expect(codes).toEqual([...Array(5).fill('REFUND_AMOUNT_EXCEEDED'), ...Array(3).fill('accepted')]);
    for (const r of results.filter((x) => x.status === 200)) await finalOf(token, r.body.data.refundId);
    expect(await balance(token)).toEqual({ available: 0, pending: round(payin.net - 90000) });
    const live = await prisma.payinRefund.findMany({ where: { merchantId: merchant.id, status: { not: 'refused' } } });
    expect(live.reduce((s, r) => s + r.amount, 0n)).toBe(9_000_000n);
    await booksClean(merchant.id);
  });

  it('a refund of a settled pay-in debits available; the settlement of a pay-in refunded while pending moves only the rest', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const settled = await paid(token, 80000);
    await planner.plan(merchant.id, new Date());
    await waitFor(async () => (await balance(token)).available === settled.net, 15_000, 'settled');
    expect((await refund(token, settled.merchantTrxId, 'RF-SETTLED', 20000)).status).toBe(200);
    expect(await balance(token)).toEqual({ available: round(settled.net - 20000), pending: 0 });
    expect(await finalOf(token, 'RF-SETTLED')).toMatchObject({ status: 'success' });

    const unsettled = await paid(token, 60000);
    expect((await refund(token, unsettled.merchantTrxId, 'RF-PENDING', 10000)).status).toBe(200);
    expect(await balance(token)).toEqual({
      available: round(settled.net - 20000),
      pending: round(unsettled.net - 10000),
    });
    await new Promise((r) => setTimeout(r, 1100)); // the next cut-off is after the second payment
    await planner.plan(merchant.id, new Date());
    await waitFor(async () => (await balance(token)).pending === 0, 15_000, 'second settlement');
    expect(await balance(token)).toEqual({ available: round(settled.net - 20000 + unsettled.net - 10000), pending: 0 });
    await booksClean(merchant.id);
  });

  it('the acquirer refusing (the payer refunded there already): failed, the money back where it was taken, once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const payin = await paid(token, 40000);
    // Refunded at the acquirer out of band (another partnerRefundNo): ours is over what is left there.
    expect(
      await acquirer.refund({
        platformTrxId: payin.platformTrxId,
        refundId: randomUUID(),
        amount: 4_000_000n,
        reason: 'elsewhere',
      }),
    ).toMatchObject({ kind: 'refunded' });
    expect((await refund(token, payin.merchantTrxId, 'RF-REFUSED', 15000)).status).toBe(200);
    expect(await balance(token)).toEqual({ available: 0, pending: round(payin.net - 15000) });
    const failed = await finalOf(token, 'RF-REFUSED');
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('Invalid Amount') });
    await waitFor(async () => (await balance(token)).pending === payin.net, 15_000, 'money back');
    expect(await balance(token)).toEqual({ available: 0, pending: payin.net });
    // A failed refund no longer counts against the pay-in.
    expect((await api('payin/qris/inquiry', token, { merchantTrxId: payin.merchantTrxId })).body.data).toMatchObject({
      refundableAmount: 40000,
    });
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id, type: 'payin.refund_returned' } })).toBe(
      1,
    );
    await booksClean(merchant.id);
  });
});
