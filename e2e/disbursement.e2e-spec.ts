import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SANDBOX_ACCOUNTS } from '@pay/bank-rail';
import { PayoutEventType, Topic } from '@pay/contracts';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant, fundMerchant, repoRoot, waitFor, merchantAuditOnceSettled } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';
import { merchantApi } from './merchant-api';

/**
 * Disbursement through the real processes: gateway (HTTP), ledger (debit/refund), payout
 * (the SNAP rail, against the SNAP provider simulator as the bank), on the bus (Redis Streams; Kafka with E2E_BUS_TRANSPORT=kafka), with balances checked before and after.
 */
describe('disbursement end to end (processes, real Postgres and Redis)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}dsb:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}dsb`),
      snapSimulator: { delayMs: 1500 },
      env: {
        BUS_LEASE_TTL_MS: '2000',
        PAYOUT_POLL_INTERVAL_MS: '100',
        PAYOUT_LEASE_MS: '1500',
        PAYOUT_TIMEOUT_RETRY_MS: '300',
      },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = merchantApi(() => stack.gatewayUrl);
  /** How many times the bank executed this disbursement, by its own record */
  const executions = async (disbursementId: string) =>
    ((await stack.snap?.executions()) ?? [])
      .filter((e) => e.partnerReferenceNo === disbursementId)
      .reduce((n, e) => n + e.executions, 0);
  const balance = async (token: string) =>
    (await api('payin/balance', token)).body.data.balance as { available: number; pending: number };

  async function inquire(token: string, accountNo = '1234567890', bankCode = 'BCA', amount = 100000) {
    const res = await api('disbursement/account-inquiry', token, {
      merchantTrxId: `INV-${randomUUID().slice(0, 12)}`,
      accountNo,
      bankCode,
      amount,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the inquiry's data as returned
  const transfer = (token: string, inq: any) =>
    api('disbursement/transfer', token, {
      merchantTrxId: inq.merchantTrxId,
      platformTrxId: inq.platformTrxId,
      accountNo: inq.accountNo,
      accountName: inq.accountName,
      bankCode: inq.bankCode,
      amount: inq.amount,
      notifyUrl: 'http://127.0.0.1:9/callback',
    });
  const statusOf = async (token: string, merchantTrxId: string) =>
    (await api('disbursement/inquiry', token, { merchantTrxId })).body;
  const finalStatus = async (token: string, merchantTrxId: string) => {
    await waitFor(
      async () => ['success', 'failed'].includes((await statusOf(token, merchantTrxId)).data?.status),
      20_000,
      `${merchantTrxId} final`,
    );
    return statusOf(token, merchantTrxId);
  };
  const merchantClean = (merchantId: number) => merchantAuditOnceSettled(prisma, merchantId);

  it('success: accepted as pending, amount + fee debited at once, then success with success_at; the rail paid once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    expect(await balance(token)).toEqual({ available: 1_000_000, pending: 0 });

    const inq = await inquire(token);
    const accepted = await transfer(token, inq);
    expect(accepted).toEqual({
      status: 200,
      body: {
        logId: expect.any(String),
        status: true,
        message: 'Request diterima, akan segera diproses',
        data: {
          merchantTrxId: inq.merchantTrxId,
          platformTrxId: inq.platformTrxId,
          amount: 100000,
          fee: { amount: 2500, percentage: 0, fixed: 2500 },
          totalAmount: 102500,
          status: 'pending',
        },
      },
    });
    expect(await balance(token)).toEqual({ available: 897_500, pending: 0 });

    const done = await finalStatus(token, inq.merchantTrxId);
    expect(done).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Query success',
      data: {
        idMerchant: merchant.id,
        merchantName: merchant.name,
        merchantTrxId: inq.merchantTrxId,
        platformTrxId: inq.platformTrxId,
        accountNo: '1234567890',
        accountName: inq.accountName,
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
        status: 'success',
        success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    });
    expect(await balance(token)).toEqual({ available: 897_500, pending: 0 });
    const d = await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(await executions(d.id)).toBe(1);
    const outcome = await prisma.outbox.findFirstOrThrow({
      where: { topic: Topic.PayoutEvents, key: String(merchant.id) },
    });
    expect(outcome.payload).toMatchObject({
      type: PayoutEventType.DisbursementSucceeded,
      eventId: `disbursement.${d.id}.success`,
      status: 'success',
      fee: '250000',
      totalAmount: '10250000',
    });
    expect(await merchantClean(merchant.id)).toEqual([]);
  });

  it.each([
    [
      'rejected by the bank',
      'BCA',
      SANDBOX_ACCOUNTS.rejected.bank,
      'Rejected by the beneficiary bank (do not honor) (4031705)',
    ],
    [
      'failing after a delay',
      'MANDIRI',
      SANDBOX_ACCOUNTS.failAfterDelay.bank,
      'The bank reports the transfer failed: Failed (06)',
    ],
  ])(
    'failure (%s): fee 0, totalAmount = amount, the debit refunded in full',
    async (_name, bankCode, accountNo, reason) => {
      const { merchant, token } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [500_000_00n]);
      const inq = await inquire(token, accountNo, bankCode, 200000);
      expect((await transfer(token, inq)).body.data.status).toBe('pending');
      expect(await balance(token)).toEqual({ available: 297_500, pending: 0 });

      const done = await finalStatus(token, inq.merchantTrxId);
      expect(done.data).toMatchObject({
        status: 'failed',
        amount: 200000,
        fee: { amount: 0, percentage: 0, fixed: 2500 },
        totalAmount: 200000,
        success_at: null,
      });
      await waitFor(async () => (await balance(token)).available === 500_000, 10_000, 'refund');
      expect(await balance(token)).toEqual({ available: 500_000, pending: 0 });
      const d = await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } });
      expect(d.failureReason).toBe(reason);
      expect(
        await prisma.ledgerEvent.count({
          where: { merchantId: merchant.id, type: 'payout.refunded', reference: d.id },
        }),
      ).toBe(1);
      expect(await merchantClean(merchant.id)).toEqual([]);
    },
  );

  it('a rail timeout is asked about, not resubmitted blindly: the transfer completes once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const inq = await inquire(token, SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet, 'OVO', 50000);
    await transfer(token, inq);
    expect((await finalStatus(token, inq.merchantTrxId)).data.status).toBe('success');
    const d = await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(await executions(d.id)).toBe(1);
    expect(await balance(token)).toEqual({ available: 447_500, pending: 0 });
  });

  it('insufficient balance: 422 naming both amounts, and nothing changes; after a top-up the same request goes through', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [50_000_00n]);
    const inq = await inquire(token);
    const eventsBefore = await prisma.ledgerEvent.count({ where: { merchantId: merchant.id } });

    const refused = await transfer(token, inq);
    expect(refused).toEqual({
      status: 422,
      body: {
        logId: expect.any(String),
        status: false,
        code: 'INSUFFICIENT_BALANCE',
        // The local stack is a sandbox: the message also says how not to wait for the settlement.
        message:
          'Insufficient balance: available 50000, required 102500 (amount + fee). Sandbox: paid pay-ins are pending until they settle; POST /api/v1/payin/qris/sandbox/settle settles them now',
      },
    });
    expect(await balance(token)).toEqual({ available: 50_000, pending: 0 });
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id } })).toBe(eventsBefore);
    expect((await statusOf(token, inq.merchantTrxId)).code).toBe('TRANSACTION_NOT_FOUND');

    await fundMerchant(prisma, merchant.id, [60_000_00n]);
    const accepted = await transfer(token, inq);
    expect(accepted.status).toBe(200);
    expect(await balance(token)).toEqual({ available: 7_500, pending: 0 });
    expect((await finalStatus(token, inq.merchantTrxId)).data.status).toBe('success');
  });

  it('a retried transfer (same request) gets the same answer and pays once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const inq = await inquire(token);
    const [a, b] = await Promise.all([transfer(token, inq), transfer(token, inq)]);
    const c = await transfer(token, inq);
    for (const r of [a, b, c])
      expect(r.body.data).toMatchObject({ merchantTrxId: inq.merchantTrxId, totalAmount: 102500 });
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(await balance(token)).toEqual({ available: 397_500, pending: 0 });
  });

  it('20 concurrent transfers on a merchant who can afford 10: exactly 10 accepted, available never negative, verify clean', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_025_000_00n]); // 10 x (100000 + 2500)
    const inquiries = [];
    for (let i = 0; i < 20; i++) inquiries.push(await inquire(token));
    const results = await Promise.all(inquiries.map((inq) => transfer(token, inq)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect(await balance(token)).toEqual({ available: 0, pending: 0 });

    const accepted = inquiries.filter((_, i) => results[i].status === 200);
    for (const inq of accepted) expect((await finalStatus(token, inq.merchantTrxId)).data.status).toBe('success');
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id, status: 'success' } })).toBe(10);
    expect(await balance(token)).toEqual({ available: 0, pending: 0 });
    expect(await merchantClean(merchant.id)).toEqual([]);
  });

  it("a merchant cannot see or touch another merchant's disbursement", async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    await fundMerchant(prisma, a.merchant.id, [500_000_00n]);
    await fundMerchant(prisma, b.merchant.id, [500_000_00n]);
    const inq = await inquire(a.token);
    expect((await transfer(a.token, inq)).status).toBe(200);

    expect((await statusOf(b.token, inq.merchantTrxId)).code).toBe('TRANSACTION_NOT_FOUND');
    const stolen = await transfer(b.token, inq);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('INQUIRY_NOT_FOUND');
    // B may use the same merchantTrxId for its own transfer: ids are per merchant.
    const own = await api('disbursement/account-inquiry', b.token, {
      merchantTrxId: inq.merchantTrxId,
      accountNo: '9876543210',
      bankCode: 'BRI',
      amount: 100000,
    });
    expect(own.status).toBe(200);
    expect(await balance(b.token)).toEqual({ available: 500_000, pending: 0 });
  });

  it('the payout service killed while payouts are in flight: after restart each reaches a final state, paid by the rail once, verify clean', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [2_000_000_00n]);
    const accounts: [string, string][] = [
      ['BCA', SANDBOX_ACCOUNTS.failAfterDelay.bank],
      ['MANDIRI', SANDBOX_ACCOUNTS.failAfterDelay.bank],
      ['GOPAY', SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet],
      ['DANA', SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet],
      ['BNI', '1234567890'],
      ['BRI', '2345678901'],
    ];
    const inquiries = [];
    for (const [bank, account] of accounts) inquiries.push(await inquire(token, account, bank, 100000));
    for (const inq of inquiries) expect((await transfer(token, inq)).status).toBe(200);

    // Kill the payout service once the delayed ones have reached the rail and are still in flight.
    await waitFor(
      async () =>
        (await prisma.disbursement.count({ where: { merchantId: merchant.id, submittedAt: { not: null } } })) >= 4,
      10_000,
      'submissions',
    );
    await stack.kill('payout');
    const inFlight = await prisma.disbursement.count({ where: { merchantId: merchant.id, status: 'pending' } });
    expect(inFlight).toBeGreaterThan(0);

    await stack.startService('payout');
    const finals = [];
    for (const inq of inquiries) finals.push((await finalStatus(token, inq.merchantTrxId)).data.status);
    expect(finals).toEqual(['failed', 'failed', 'success', 'success', 'success', 'success']);

    const ds = await prisma.disbursement.findMany({ where: { merchantId: merchant.id } });
    for (const d of ds) expect(await executions(d.id)).toBe(1);
    // 4 successes cost 4 x 102500; the 2 failures were refunded in full.
    await waitFor(async () => (await balance(token)).available === 2_000_000 - 4 * 102_500, 10_000, 'refunds');
    expect(await merchantClean(merchant.id)).toEqual([]);
  });
});
