import type { Server } from 'node:http';
import { text as readText } from 'node:stream/consumers';
import { createPgPool, type PrismaClient, streamReconCsv } from '@pay/persistence';
import { createDisbursement, createMerchant, fundMerchant, insertPayin, signedInMerchantUser } from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';
import { LIST_CSV_MAX_ROWS } from './list-csv';

/**
 * The dashboard's lists as CSV downloads: every row the filters match, the columns and cells of
 * the day files (compared here with the file the export writes for the same rows), formulas
 * neutralised, and a range too large refused before anything is sent.
 */
describe('dashboard list downloads as CSV (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let pool: Pool;

  beforeAll(async () => {
    gateway = await startTestGateway({ SANDBOX_MODE: 'true' });
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
  });
  afterAll(async () => {
    await pool.end();
    await gateway.close();
  });

  async function merchantWithSession(name?: string) {
    const m = await createMerchant(prisma, name ? { name } : {});
    const session = await signedInMerchantUser(prisma, http as Server, m.merchant.id);
    const get = (path: string, query: Record<string, string> = {}) =>
      request(http).get(`/dashboard/api${path}`).query(query).set('Cookie', session.cookie);
    return { ...m, get };
  }

  const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

  /** The day file the export writes for the merchant's rows of the last hour. */
  async function dayFile(merchantId: number, kind: 'payins' | 'payouts') {
    const { csv, done } = await streamReconCsv(
      pool,
      merchantId,
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 3_600_000),
      kind,
    );
    const body = await readText(csv);
    await done();
    return body;
  }

  it('pay-ins: every matching row (not one page), newest first, with exactly the cells of the recon file', async () => {
    const m = await merchantWithSession('=Toko "Formula"');
    for (let i = 0; i < 120; i++) await insertPayin(prisma, m.merchant.id, 1_000_00n + BigInt(i), 1_00n, `CSV-${i}`);
    await insertPayin(prisma, m.merchant.id, 50_000_50n, 3_50n, '@SUM(A1)');
    // Each a second apart, in the order written: rows inserted within one millisecond would tie on
    // createdAt, and the list breaks a tie by id (random), not by the order of the inserts.
    await prisma.$executeRaw`
      UPDATE payins SET created_at = now() - (121 - coalesce(substring(merchant_trx_id from '^CSV-([0-9]+)$')::int, 121)) * interval '1 second'
       WHERE merchant_id = ${m.merchant.id}`;

    const res = await m.get('/payins.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="payins-${m.merchant.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const rows = rowsOf(res.text);
    expect(rows).toHaveLength(121);
    expect(rows[0].merchantTrxId).toBe("'@SUM(A1)");
    expect(rows[0]).toMatchObject({ merchantName: '\'=Toko "Formula"', amount: '50000.5', fee: '3.5' });
    // Row for row what the recon file says of the same pay-ins (it lists them oldest first).
    const file = rowsOf(await dayFile(m.merchant.id, 'payins'));
    const byId = (list: Record<string, string>[]) => Object.fromEntries(list.map((r) => [r.merchantTrxId, r]));
    expect(byId(rows)).toEqual(byId(file));
    expect(res.text.split('\n')[0]).toBe((await dayFile(m.merchant.id, 'payins')).split('\n')[0]);

    // The list's filters apply: a prefix, a status.
    expect(rowsOf((await m.get('/payins.csv', { merchantTrxId: 'CSV-11' })).text).map((r) => r.merchantTrxId)).toEqual([
      'CSV-119',
      'CSV-118',
      'CSV-117',
      'CSV-116',
      'CSV-115',
      'CSV-114',
      'CSV-113',
      'CSV-112',
      'CSV-111',
      'CSV-110',
      'CSV-11',
    ]);
    expect(rowsOf((await m.get('/payins.csv', { status: 'failed' })).text)).toEqual([]);
    expect((await m.get('/payins.csv', { status: 'refused' })).body).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('payouts: the cells of the payouts file, a failed one with its code and reason; another merchant sees none of them', async () => {
    const m = await merchantWithSession();
    await fundMerchant(prisma, m.merchant.id, [1_000_000_00n]);
    await createDisbursement(prisma, m.merchant.id, { amount: 100_000_00n, fee: 2_500_00n, outcome: 'success' });
    const { disbursement: failed } = await createDisbursement(prisma, m.merchant.id, {
      amount: 50_000_00n,
      fee: 2_500_00n,
      outcome: 'failed',
    });
    const res = await m.get('/payouts.csv');
    expect(res.status).toBe(200);
    const rows = rowsOf(res.text);
    const file = rowsOf(await dayFile(m.merchant.id, 'payouts'));
    expect(rows).toEqual([...file].reverse());
    expect(rows.find((r) => r.merchantTrxId === failed.merchantTrxId)).toMatchObject({
      status: 'failed',
      fee: '0',
      totalAmount: '50000',
      failureCode: 'REJECTED_BY_BANK',
      failureReason: 'Rejected by the beneficiary bank',
    });
    const other = await merchantWithSession();
    expect(rowsOf((await other.get('/payouts.csv')).text)).toEqual([]);
  });

  it(`over ${LIST_CSV_MAX_ROWS} matching rows: 400 in the envelope, pointing to the day files; narrowed, it downloads`, async () => {
    const m = await merchantWithSession();
    await prisma.$executeRawUnsafe(`
      INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, created_at)
      SELECT gen_random_uuid(), ${m.merchant.id}, 'BULK-' || g, 'QRCSV${m.merchant.id}-' || g, 100000, 1000, 700, 0, 'pending',
             now() - make_interval(secs => g)
        FROM generate_series(1, ${LIST_CSV_MAX_ROWS + 1}) AS g`);
    const refused = await m.get('/payins.csv');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      status: false,
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('Reconciliation page'),
    });
    const narrowed = await m.get('/payins.csv', { merchantTrxId: 'BULK-1000' });
    expect(rowsOf(narrowed.text).map((r) => r.merchantTrxId)).toEqual(['BULK-1000', 'BULK-10000', 'BULK-10001']);
  });

  it('needs a session: none is 401, as for every dashboard route', async () => {
    expect((await request(http).get('/dashboard/api/payins.csv')).status).toBe(401);
    expect((await request(http).get('/dashboard/api/payouts.csv')).status).toBe(401);
  });
});
