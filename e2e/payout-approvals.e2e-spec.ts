import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LocalStack, testS3, testStackBus } from '@pay/devstack';
import { createPgPool, createPrismaClient, PayoutApprovalRepository, type PrismaClient } from '@pay/persistence';
import {
  createDashboardUser,
  createMerchant,
  fundMerchant,
  merchantAuditOnceSettled,
  repoRoot,
  signInDashboard,
  waitFor,
  WebhookReceiver,
} from '@pay/testing';
import { merchantApi } from './merchant-api';

/**
 * Approval before money leaves (issue 44 part 2) through the real processes, over HTTP as a
 * merchant integrates: a transfer above the threshold answers awaiting_approval with the money
 * debited; a finance user approves one in the dashboard (the payout service sends it: success), rejects
 * another (failed APPROVAL_REJECTED, the money back, its callback), a third expires (failed
 * APPROVAL_EXPIRED, the money back); the ledger audit is clean. On the bus of the run (Redis
 * Streams; Kafka with E2E_BUS_TRANSPORT=kafka).
 */
describe('payout approvals end to end (processes, real Postgres, bus and SNAP simulator)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}apr:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}apr`),
      snapSimulator: { delayMs: 200 },
      env: { BUS_LEASE_TTL_MS: '2000', PAYOUT_POLL_INTERVAL_MS: '200', WEBHOOK_DISPATCH_INTERVAL_MS: '200' },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = merchantApi(() => stack.gatewayUrl);
  const available = async (token: string) => (await api('payin/balance', token)).body.data.balance.available as number;
  const statusOf = async (token: string, merchantTrxId: string) =>
    (await api('disbursement/inquiry', token, { merchantTrxId })).body.data;

  async function transfer(token: string, amount: number) {
    const inq = (
      await api('disbursement/account-inquiry', token, {
        merchantTrxId: `APR-${randomUUID().slice(0, 12)}`,
        accountNo: '1234567890',
        bankCode: 'BCA',
        amount,
      })
    ).body.data;
    const res = await api('disbursement/transfer', token, {
      merchantTrxId: inq.merchantTrxId,
      platformTrxId: inq.platformTrxId,
      accountNo: inq.accountNo,
      accountName: inq.accountName,
      bankCode: inq.bankCode,
      amount: inq.amount,
      notifyUrl: receiver.url,
    });
    expect(res.status).toBe(200);
    return res.body.data as { merchantTrxId: string; platformTrxId: string; status: string; totalAmount: number };
  }

  it('held at transfer; approved -> paid, rejected -> the money back with its callback, expired -> the money back; the audit clean', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [5_000_000_00n]);
    const pool = createPgPool(process.env.DATABASE_URL as string, 1);
    await new PayoutApprovalRepository(pool).setSettings(merchant.id, {
      threshold: 500_000_00n,
      ttlSeconds: 3600,
      batches: false,
    });
    await pool.end();
    const funded = await available(token);

    // At or below the threshold: as before.
    const small = await transfer(token, 500_000);
    expect(small.status).toBe('pending');
    const [toApprove, toReject, toExpire] = [
      await transfer(token, 1_000_000),
      await transfer(token, 1_000_000),
      await transfer(token, 1_000_000),
    ];
    for (const t of [toApprove, toReject, toExpire]) expect(t.status).toBe('awaiting_approval');
    expect((await statusOf(token, toApprove.merchantTrxId)).status).toBe('awaiting_approval');
    const held = 3 * toApprove.totalAmount;
    await waitFor(
      async () => (await statusOf(token, small.merchantTrxId)).status === 'success',
      30_000,
      'the small one paid',
    );
    expect(await available(token)).toBe(funded - small.totalAmount - held);

    const finance = await createDashboardUser(prisma, { merchantId: merchant.id, merchantRole: 'finance' });
    const session = await signInDashboard(stack.gatewayUrl, finance);
    const decide = (platformTrxId: string, verb: 'approve' | 'reject') =>
      fetch(`${stack.gatewayUrl}/dashboard/api/approvals/payouts/${platformTrxId}/${verb}`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
        body: JSON.stringify({ password: finance.password }),
      });
    expect((await decide(toApprove.platformTrxId, 'approve')).status).toBe(200);
    expect((await decide(toReject.platformTrxId, 'reject')).status).toBe(200);
    await prisma.$executeRaw`UPDATE disbursements SET approval_expires_at = now(), next_check_at = now()
      WHERE merchant_id = ${merchant.id} AND merchant_trx_id = ${toExpire.merchantTrxId}`;

    await waitFor(
      async () => (await statusOf(token, toApprove.merchantTrxId)).status === 'success',
      30_000,
      'approved paid',
    );
    await waitFor(
      async () => (await available(token)) === funded - small.totalAmount - toApprove.totalAmount,
      30_000,
      'the rejected and the expired refunded',
    );
    expect(await statusOf(token, toReject.merchantTrxId)).toMatchObject({
      status: 'failed',
      failureCode: 'APPROVAL_REJECTED',
    });
    expect(await statusOf(token, toExpire.merchantTrxId)).toMatchObject({
      status: 'failed',
      failureCode: 'APPROVAL_EXPIRED',
    });
    await waitFor(
      async () =>
        receiver.requests.some((r) => {
          const body = JSON.parse(r.rawBody);
          return body.data?.merchantTrxId === toReject.merchantTrxId && body.data?.failureCode === 'APPROVAL_REJECTED';
        }),
      30_000,
      'the rejection callback',
    );
    expect(await merchantAuditOnceSettled(prisma, merchant.id, 30_000)).toEqual([]);
  }, 180_000);
});
