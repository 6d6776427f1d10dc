import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { createMerchant, signedInMerchantUser } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

/**
 * Batch payouts on the merchant dashboard (issue 44): a CSV's rows previewed (nothing recorded),
 * submitted with a recent password and audited, then followed; the merchant's own batches only.
 */
describe('merchant dashboard API: batch payouts (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await startTestGateway({});
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(() => gateway.close());

  async function merchantWithSession() {
    const m = await createMerchant(prisma);
    const s = await signedInMerchantUser(prisma, http as Server, m.merchant.id);
    const path = (p: string) => `/dashboard/api/payouts/batch${p}`;
    return {
      ...m,
      get: (p: string) => request(http).get(path(p)).set('Cookie', s.cookie),
      post: (p: string, body: object) =>
        request(http).post(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
    };
  }
  const row = (over: object = {}) => ({
    merchantTrxId: `D-${randomUUID().slice(0, 13)}`,
    bankCode: 'BCA',
    accountNo: '1234567890',
    amount: 100000,
    ...over,
  });

  it("previews each row's problem without recording anything, then submits: the same answers, audited", async () => {
    const { merchant, post, get } = await merchantWithSession();
    const rows = [row(), row({ bankCode: 'XYZ' }), row({ amount: 1 }), row({ amount: 250000.5 })];
    const preview = await post('/preview', { rows });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ rowCount: 4, accepted: 2, refused: 2, acceptedAmount: 350000.5 });
    expect(preview.body.data.rows.map((r: { result: string; code?: string }) => r.code ?? r.result)).toEqual([
      'accepted',
      'UNKNOWN_BANK_CODE',
      'VALIDATION_ERROR',
      'accepted',
    ]);
    expect(await prisma.disbursementBatch.count({ where: { merchantId: merchant.id } })).toBe(0);

    const batchId = `DASH-${randomUUID()}`;
    const submitted = await post('', { batchId, rows });
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.rows.map((r: { result: string }) => r.result)).toEqual(
      preview.body.data.rows.map((r: { result: string }) => r.result),
    );
    const shown = await get(`/${batchId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ batchId, rowCount: 4, counts: { checking: 2, refused: 2 } });
    const audit = await prisma.$queryRaw<{ target: string; details: unknown }[]>`
      SELECT target, details FROM operator_audit_log WHERE merchant_id = ${merchant.id} AND action = 'payout.batch'`;
    expect(audit).toEqual([{ target: `batch:${batchId}`, details: { rowCount: 4, accepted: 2, refused: 2 } }]);

    // A row whose merchantTrxId an accepted row now holds: the preview says so
    const again = await post('/preview', { rows: [rows[0], row()] });
    expect(again.body.data.rows.map((r: { result: string; code?: string }) => r.code ?? r.result)).toEqual([
      'DUPLICATE_MERCHANT_TRX_ID',
      'accepted',
    ]);
  });

  it('wants a recent password to submit, a session for everything, and shows only the merchant’s batches', async () => {
    const a = await merchantWithSession();
    const b = await merchantWithSession();
    const batchId = `DASH-${randomUUID()}`;
    expect((await a.post('', { batchId, rows: [row()] })).status).toBe(200);
    const other = await b.get(`/${batchId}`);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('BATCH_NOT_FOUND');
    expect((await request(http).get(`/dashboard/api/payouts/batch/${batchId}`)).status).toBe(401);

    await prisma.$executeRaw`UPDATE dashboard_sessions SET authenticated_at = now() - interval '11 minutes'
      WHERE user_id IN (SELECT id FROM dashboard_users WHERE merchant_id = ${b.merchant.id})`;
    const stale = await b.post('', { batchId: `DASH-${randomUUID()}`, rows: [row()] });
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('REAUTH_REQUIRED');
    expect(await prisma.disbursementBatch.count({ where: { merchantId: b.merchant.id } })).toBe(0);
    // The preview records nothing and needs no recent password
    expect((await b.post('/preview', { rows: [row()] })).status).toBe(200);
  });

  it('takes a 1,000-row CSV (the larger body) in the preview', async () => {
    const { post } = await merchantWithSession();
    const rows = Array.from({ length: 1000 }, (_v, i) =>
      row({ merchantTrxId: `CSV-${randomUUID()}-${i}`, accountName: 'SOME NAME OF A LENGTH' }),
    );
    const preview = await post('/preview', { rows });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ rowCount: 1000, accepted: 1000 });
  });
});
