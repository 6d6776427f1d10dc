import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import {
  createMerchant,
  fundMerchant,
  repoRoot,
  waitFor,
  WebhookReceiver,
  merchantAuditOnceSettled,
} from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';

const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string) => boolean;
};

/**
 * Batch payouts (issue 44) through the real processes: the gateway records the batch, the payout
 * service name-checks each accepted row with the SNAP simulator (the bank), records its
 * disbursement with the ledger's payout.debit, sends it, and announces the batch once every row is
 * final; on the bus of the run (Redis Streams; Kafka with E2E_BUS_TRANSPORT=kafka).
 */
describe('batch payouts end to end (processes, real Postgres, bus and SNAP simulator)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}bat:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}bat`),
      snapSimulator: { delayMs: 200 },
      env: {
        BUS_LEASE_TTL_MS: '2000',
        PAYOUT_POLL_INTERVAL_MS: '200',
        PAYOUT_BATCH_SIZE: '200',
        PAYOUT_LEASE_MS: '5000',
        PAYOUT_TIMEOUT_RETRY_MS: '300',
        WEBHOOK_DISPATCH_INTERVAL_MS: '200',
      },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = async (method: 'GET' | 'POST', path: string, token: string, body?: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
      method,
      headers: { token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  const available = async (token: string) =>
    (await api('GET', 'payin/balance', token)).body.data.balance.available as number;
  const batchOf = async (token: string, batchId: string, query = '?pageSize=1000') =>
    (await api('GET', `disbursement/batch/${batchId}${query}`, token)).body.data;
  const completed = async (token: string, batchId: string) => {
    await waitFor(
      async () => (await batchOf(token, batchId, '?pageSize=1')).status === 'completed',
      90_000,
      `${batchId} completed`,
    );
    return batchOf(token, batchId);
  };
  const audit = (merchantId: number) => merchantAuditOnceSettled(prisma, merchantId, 30_000);
  const batchCallbacks = (batchId: string) =>
    receiver.requests.filter((r) => {
      const body = JSON.parse(r.rawBody);
      return body.type === 'disbursement.batch.completed' && body.data.batchId === batchId;
    });

  it('1,000 rows, 10 bad: 990 paid, 10 refused with their reasons, the balance down by exactly the 990, one batch callback; again: nothing new', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const secret = (await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).webhookSecret;
    await fundMerchant(prisma, merchant.id, [20_000_000_00n]);
    const before = await available(token);
    // The bank's name of one account, as a single inquiry shows it: a row naming it (in other case and spacing) goes.
    const inq = await api('POST', 'disbursement/account-inquiry', token, {
      merchantTrxId: `NAME-${randomUUID().slice(0, 8)}`,
      bankCode: 'BNI',
      accountNo: '5550001111',
      amount: 10000,
    });
    expect(inq.status).toBe(200);
    const holder = inq.body.data.accountName as string;

    const prefix = `PR-${randomUUID().slice(0, 8)}`;
    const rows: Record<string, unknown>[] = Array.from({ length: 1000 }, (_v, i) => ({
      merchantTrxId: `${prefix}-${i}`,
      bankCode: i % 3 === 0 ? 'BRI' : 'BCA',
      accountNo: `12345${String(i).padStart(5, '0')}`,
      amount: 10000 + (i % 7),
    }));
    rows[5] = { ...rows[5], bankCode: 'BNI', accountNo: '5550001111', accountName: `  ${holder.toLowerCase()} ` };
    // The 10 planted bad rows, and what each must say
    const planted: Record<number, [Record<string, unknown>, string]> = {
      10: [{ bankCode: 'XYZ' }, 'UNKNOWN_BANK_CODE'],
      20: [{ amount: 5 }, 'VALIDATION_ERROR'],
      30: [{ merchantTrxId: 'has a space' }, 'VALIDATION_ERROR'],
      40: [{ merchantTrxId: `${prefix}-41` }, 'DUPLICATE_MERCHANT_TRX_ID'],
      50: [{ accountNo: '0000000404' }, 'ACCOUNT_NOT_FOUND'],
      60: [{ accountNo: '0000000404', bankCode: 'BNI' }, 'ACCOUNT_NOT_FOUND'],
      70: [{ accountNo: '0000000403' }, 'ACCOUNT_BLOCKED'],
      80: [{ accountNo: '0000000403', bankCode: 'MANDIRI' }, 'ACCOUNT_BLOCKED'],
      90: [{ accountName: 'SOMEONE ELSE' }, 'ACCOUNT_NAME_MISMATCH'],
      100: [{ bankCode: 'BNI', accountNo: '5550001111', accountName: 'NOT THE HOLDER' }, 'ACCOUNT_NAME_MISMATCH'],
    };
    // Row 41 comes after row 40 (which takes its merchantTrxId): 41 is the duplicate
    for (const [i, [over]] of Object.entries(planted)) rows[Number(i)] = { ...rows[Number(i)], ...over };
    const expectedCode = new Map<number, string>(Object.entries(planted).map(([i, [, code]]) => [Number(i) + 1, code]));
    expectedCode.delete(41);
    expectedCode.set(42, 'DUPLICATE_MERCHANT_TRX_ID');
    const body = { batchId: `BATCH-${randomUUID()}`, notifyUrl: receiver.url, rows };

    const started = Date.now();
    const submitted = await api('POST', 'disbursement/batch', token, body);
    expect(submitted.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Refused at once: the 4 the gateway can tell alone; the 6 the bank must answer are accepted, then refused
    expect(submitted.body.data).toMatchObject({ rowCount: 1000, accepted: 996, refused: 4 });

    const done = await completed(token, body.batchId);
    const good = rows.filter((_r, i) => !expectedCode.has(i + 1));
    // In sen, summed as integers; the API answers Rupiah.
    const paid = good.reduce((sum: number, r) => sum + Math.round((r.amount as number) * 100), 0);
    expect(done.counts).toEqual({ checking: 0, pending: 0, success: 990, failed: 0, refused: 10, reversed: 0 });
    expect(done.totals).toEqual({
      acceptedAmount: expect.any(Number),
      successAmount: paid / 100,
      successFee: 990 * 2500,
      successTotal: (paid + 990 * 2500_00) / 100,
    });
    for (const row of done.rows) {
      if (expectedCode.has(row.rowNo)) {
        expect([row.rowNo, row.status, row.failureCode]).toEqual([row.rowNo, 'refused', expectedCode.get(row.rowNo)]);
        expect(row.failureMessage).toEqual(expect.any(String));
      } else
        expect([row.rowNo, row.status, row.platformTrxId]).toEqual([
          row.rowNo,
          'success',
          expect.stringMatching(/^DSB/),
        ]);
    }
    expect(done.rows[5].accountName).toBe(holder);
    // The balance: exactly the 990 amounts and their fees
    expect(Math.round((before - (await available(token))) * 100)).toBe(paid + 990 * 2500_00);
    // Each row is a normal disbursement: the inquiry by merchantTrxId shows it
    const one = await api('POST', 'disbursement/inquiry', token, { merchantTrxId: rows[0].merchantTrxId });
    expect(one.body.data).toMatchObject({ status: 'success', platformTrxId: done.rows[0].platformTrxId });

    // The batch callback: once, signed like the others, its counts and totals
    await waitFor(async () => batchCallbacks(body.batchId).length === 1, 20_000, 'the batch callback');
    const [callback] = batchCallbacks(body.batchId);
    expect(verifyCallback(callback.rawBody, callback.headers['x-callback-signature'] as string, secret)).toBe(true);
    expect(JSON.parse(callback.rawBody).data).toMatchObject({
      batchId: body.batchId,
      rowCount: 1000,
      counts: { success: 990, failed: 0, refused: 10, reversed: 0 },
      totals: { amount: paid / 100, fee: 990 * 2500 },
    });
    // And each paid row's own disbursement.succeeded went to the batch's notifyUrl
    await waitFor(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { merchantId: merchant.id, eventType: 'disbursement.succeeded', status: 'delivered' },
        })) === 990,
      30_000,
      "the rows' callbacks",
    );

    // The same batch again: the same answer, nothing new
    const again = await api('POST', 'disbursement/batch', token, body);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(submitted.body.data);
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(990);
    expect(Math.round((before - (await available(token))) * 100)).toBe(paid + 990 * 2500_00);
    expect(await audit(merchant.id)).toEqual([]);
    expect(batchCallbacks(body.batchId)).toHaveLength(1);
  }, 150_000);

  it('a batch over the balance: the rows that fit go, the rest INSUFFICIENT_BALANCE; the audit is clean', async () => {
    const { merchant, token } = await createMerchant(prisma);
    // 5 rows of Rp 100,000 + Rp 2,500 fit, and Rp 50,000 over
    await fundMerchant(prisma, merchant.id, [5n * 102_500_00n + 50_000_00n]);
    const rows = Array.from({ length: 8 }, (_v, i) => ({
      merchantTrxId: `OVER-${randomUUID().slice(0, 8)}-${i}`,
      bankCode: 'BCA',
      accountNo: `98765${String(i).padStart(5, '0')}`,
      amount: 100000,
    }));
    const batchId = `OVER-${randomUUID()}`;
    const submitted = await api('POST', 'disbursement/batch', token, { batchId, rows });
    expect(submitted.body.data).toMatchObject({ accepted: 8, refused: 0 });
    const done = await completed(token, batchId);
    expect(done.counts).toMatchObject({ success: 5, refused: 3 });
    const refused = done.rows.filter((r: { status: string }) => r.status === 'refused');
    expect(refused.map((r: { failureCode: string }) => r.failureCode)).toEqual(Array(3).fill('INSUFFICIENT_BALANCE'));
    expect(await available(token)).toBe(50_000);
    expect(await audit(merchant.id)).toEqual([]);
    // Without notifyUrl: no callback at all
    expect(await prisma.webhookDelivery.count({ where: { merchantId: merchant.id } })).toBe(0);
  }, 120_000);
});
