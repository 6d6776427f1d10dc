import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, createDisbursement } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

/**
 * Batch payouts, the gateway's side (issue 44) against the real Postgres: each row validated on its
 * own (a bad row never fails the others), the batch and its rows recorded at once, idempotency by
 * batchId, one merchant's batches invisible to another. The rows' name checks, debits and the
 * batch's callback run in the payout service: e2e/batch-payouts.e2e-spec.ts.
 */
describe('disbursement batch endpoints, gateway side (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
      }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const submit = (token: string, body: object) =>
    request(http).post('/api/v1/disbursement/batch').set('token', token).send(body);
  const show = (token: string, batchId: string, query = '') =>
    request(http)
      .get(`/api/v1/disbursement/batch/${encodeURIComponent(batchId)}${query}`)
      .set('token', token);
  const row = (over: object = {}) => ({
    merchantTrxId: `B-${randomUUID().slice(0, 13)}`,
    bankCode: 'BCA',
    accountNo: '1234567890',
    amount: 100000,
    ...over,
  });
  const rowsOf = (batchUuid: string) =>
    prisma.disbursementBatchRow.findMany({ where: { batchId: batchUuid }, orderBy: { rowNo: 'asc' } });

  it('accepts the good rows and refuses each bad one with its own code and message; GET shows them', async () => {
    const { token, merchant } = await createMerchant(prisma);
    const taken = await createDisbursement(prisma, merchant.id, {
      amount: 10000000n,
      fee: 250000n,
      outcome: 'funding',
    });
    const dup = `B-${randomUUID().slice(0, 13)}`;
    const rows = [
      row(),
      row({ bankCode: 'XYZ' }),
      row({ amount: 5 }),
      row({ amount: 100.001 }),
      row({ merchantTrxId: 'has space' }),
      row({ accountNo: '12' }),
      row({ merchantTrxId: dup }),
      row({ merchantTrxId: dup }),
      row({ merchantTrxId: taken.disbursement.merchantTrxId }),
      row({ extra: 1 }),
      row({ bankCode: 'bca', accountName: 'Budi Santoso' }),
    ];
    const batchId = `PAY-${randomUUID()}`;
    const res = await submit(token, { batchId, rows });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const data = res.body.data;
    expect(data).toMatchObject({ batchId, rowCount: 11, accepted: 3, refused: 8 });
    const results = data.rows.map((r: { result: string; code?: string }) => [r.result, r.code ?? null]);
    expect(results).toEqual([
      ['accepted', null],
      ['refused', 'UNKNOWN_BANK_CODE'],
      ['refused', 'VALIDATION_ERROR'],
      ['refused', 'VALIDATION_ERROR'],
      ['refused', 'VALIDATION_ERROR'],
      ['refused', 'VALIDATION_ERROR'],
      ['accepted', null],
      ['refused', 'DUPLICATE_MERCHANT_TRX_ID'],
      ['refused', 'DUPLICATE_MERCHANT_TRX_ID'],
      ['refused', 'VALIDATION_ERROR'],
      ['accepted', null],
    ]);
    // The same messages as a single transfer's
    expect(data.rows[2].message).toMatch(/^amount: must be between/);
    expect(data.rows[3].message).toBe('amount: must be a positive amount in Rupiah with at most two decimals');
    expect(data.rows[4].message).toBe('merchantTrxId: must be 1 to 64 printable characters without spaces');
    expect(data.rows[1].message).toMatch(/^bankCode: unknown bank or e-wallet code "XYZ"/);
    expect(data.rows[9].message).toBe('extra: property extra should not exist');

    const shown = await show(token, batchId);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      batchId,
      status: 'processing',
      rowCount: 11,
      acceptedCount: 3,
      counts: { checking: 3, refused: 8, pending: 0, success: 0 },
      totals: { acceptedAmount: 300000, successAmount: 0 },
      page: { page: 1, pageSize: 100, totalRows: 11 },
    });
    expect(shown.body.data.rows[10]).toMatchObject({ rowNo: 11, bankCode: 'BCA', status: 'checking', amount: 100000 });
    expect(shown.body.data.rows[1]).toMatchObject({ status: 'refused', failureCode: 'UNKNOWN_BANK_CODE' });
    const paged = await show(token, batchId, '?page=2&pageSize=5');
    expect(paged.body.data.rows.map((r: { rowNo: number }) => r.rowNo)).toEqual([6, 7, 8, 9, 10]);
  });

  it('the same batchId and body answers the same and records nothing; another body is 409 BATCH_ID_CONFLICT', async () => {
    const { token, merchant } = await createMerchant(prisma);
    const body = {
      batchId: `PAY-${randomUUID()}`,
      notifyUrl: 'https://merchant.example/batch',
      rows: [row(), row({ bankCode: 'NOPE' })],
    };
    const first = await submit(token, body);
    expect(first.status).toBe(200);
    const again = await submit(token, body);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await prisma.disbursementBatch.count({ where: { merchantId: merchant.id } })).toBe(1);
    const [batch] = await prisma.disbursementBatch.findMany({ where: { merchantId: merchant.id } });
    expect(await rowsOf(batch.id)).toHaveLength(2);

    const other = await submit(token, { ...body, rows: [body.rows[0], row()] });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ status: false, code: 'BATCH_ID_CONFLICT' });
    const otherUrl = await submit(token, { ...body, notifyUrl: 'https://merchant.example/other' });
    expect(otherUrl.body.code).toBe('BATCH_ID_CONFLICT');
    expect(await rowsOf(batch.id)).toHaveLength(2);

    // Concurrent copies: one batch
    const racing = { ...body, batchId: `PAY-${randomUUID()}` };
    const answers = await Promise.all([submit(token, racing), submit(token, racing), submit(token, racing)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await prisma.disbursementBatch.count({ where: { merchantId: merchant.id, batchId: racing.batchId } })).toBe(
      1,
    );
  });

  it("a merchantTrxId held by another batch's accepted row is refused in the next batch", async () => {
    const { token } = await createMerchant(prisma);
    const first = row();
    await submit(token, { batchId: `PAY-${randomUUID()}`, rows: [first] });
    const res = await submit(token, { batchId: `PAY-${randomUUID()}`, rows: [first, row()] });
    expect(res.body.data.rows.map((r: { result: string; code?: string }) => r.code ?? r.result)).toEqual([
      'DUPLICATE_MERCHANT_TRX_ID',
      'accepted',
    ]);
  });

  it('refuses a body that is not a batch as a whole: 400 VALIDATION_ERROR, nothing recorded', async () => {
    const { token, merchant } = await createMerchant(prisma);
    const cases: [object, RegExp][] = [
      [{ rows: [row()] }, /^batchId/],
      [{ batchId: 'X', rows: [] }, /^rows/],
      [{ batchId: 'X', rows: Array.from({ length: 1001 }, () => row()) }, /^rows/],
      [{ batchId: 'X', rows: [1, 2] }, /^rows/],
      [{ batchId: 'X', rows: [row()], notifyUrl: 'ftp://x' }, /^notifyUrl/],
      [{ batchId: 'has space', rows: [row()] }, /^batchId/],
    ];
    for (const [body, message] of cases) {
      const res = await submit(token, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
      expect(res.body.message).toMatch(message);
    }
    expect(await prisma.disbursementBatch.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('takes 1,000 rows in one request (the route allows the larger body)', async () => {
    const { token } = await createMerchant(prisma);
    const rows = Array.from({ length: 1000 }, (_v, i) =>
      row({ merchantTrxId: `PAYROLL-${randomUUID()}-${i}`, accountName: 'A NAME OF SOME LENGTH FOR THE BODY' }),
    );
    const res = await submit(token, { batchId: `PAY-${randomUUID()}`, rows });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rowCount: 1000, accepted: 1000, refused: 0 });
  });

  it("one merchant never sees another's batch: 404 BATCH_NOT_FOUND, and the same batchId is its own", async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    const batchId = `PAY-${randomUUID()}`;
    expect((await submit(a.token, { batchId, rows: [row()] })).status).toBe(200);
    const seen = await show(b.token, batchId);
    expect(seen.status).toBe(404);
    expect(seen.body).toMatchObject({ status: false, code: 'BATCH_NOT_FOUND' });
    // b's own batch under the same batchId is not a conflict with a's
    const own = await submit(b.token, { batchId, rows: [row(), row()] });
    expect(own.status).toBe(200);
    expect(own.body.data.rowCount).toBe(2);
    expect((await show(a.token, batchId)).body.data.rowCount).toBe(1);
    expect((await show(a.token, `PAY-${randomUUID()}`)).status).toBe(404);
    expect((await request(http).get(`/api/v1/disbursement/batch/${batchId}`)).status).toBe(401);
  });
});
