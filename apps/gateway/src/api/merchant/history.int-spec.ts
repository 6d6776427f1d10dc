import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createDisbursement, createMerchant, fundMerchant, insertPayin, ledgerFor } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

/** `count` pay-ins of the merchant on few distinct instants (ties broken by id), created `hoursAgo` hours ago and before. */
async function bulkPayins(
  prisma: PrismaClient,
  merchantId: number,
  count: number,
  status = 'success',
  hoursAgo = 1,
): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, expires_at, created_at)
    SELECT gen_random_uuid(), ${merchantId}, 'BULK-' || g || '-' || md5(random()::text), 'QRB' || md5(random()::text), 1000000, 15000, 0, 15000, ${status},
           now() + interval '1 hour', now() - make_interval(hours => ${hoursAgo}) - make_interval(mins => g % 10)
      FROM generate_series(1, ${count}) g`;
}

describe('history lists: GET /api/v1/balance/movements, /api/v1/payin/list, /api/v1/disbursement/list (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        SWAGGER_ENABLED: 'true',
      }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const get = (path: string, token: string, query: Record<string, string | number> = {}) =>
    request(http).get(path).query(query).set('token', token);

  async function walk(
    path: string,
    token: string,
    query: Record<string, string | number>,
    between?: () => Promise<void>,
  ) {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const res = await get(path, token, { ...query, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      const { items, nextCursor, hasMore } = res.body.data;
      ids.push(...items.map((i: { platformTrxId?: string; id?: string }) => i.id ?? i.platformTrxId));
      expect(hasMore).toBe(nextCursor !== null);
      if (!hasMore) return ids;
      cursor = nextCursor;
      await between?.();
    }
    throw new Error('no last page');
  }

  it('walks every pay-in exactly once, newest first, while new pay-ins arrive between pages', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await bulkPayins(prisma, merchant.id, 57);
    const before = await prisma.payin.findMany({
      where: { merchantId: merchant.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });

    const seen = await walk('/api/v1/payin/list', token, { limit: 7 }, async () => {
      await insertPayin(prisma, merchant.id, 5000000n, 50000n); // newer than every page: never shown by this walk
      await bulkPayins(prisma, merchant.id, 3, 'success', 0); // created now
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before.map((p) => p.platformTrxId));
  });

  it('shows the inquiry fields of each pay-in and filters by status and a half-open range of creation times', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await bulkPayins(prisma, merchant.id, 5, 'failed', 48);
    await bulkPayins(prisma, merchant.id, 4, 'success', 24);
    const paid = await insertPayin(prisma, merchant.id, 5000000n, 50000n, 'ORDER-LIST-1');
    await prisma.payin.create({
      data: {
        id: randomUUID(),
        merchantId: merchant.id,
        merchantTrxId: 'ORDER-EXPIRED',
        platformTrxId: 'QREXPIRED' + merchant.id,
        amount: 100n,
        fee: 1n,
        feePctMilli: 0,
        feeFixed: 1n,
        status: 'pending',
        expiresAt: new Date(Date.now() - 1000),
      },
    });

    const first = await get('/api/v1/payin/list', token, { limit: 1 });
    expect(first.body).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Query success',
      data: { items: [expect.any(Object)], nextCursor: expect.any(String), hasMore: true },
    });
    const row = await prisma.payin.findUniqueOrThrow({ where: { id: paid } });
    const second = await get('/api/v1/payin/list', token, { limit: 1, status: 'success' });
    expect(second.body.data.items[0]).toEqual({
      idMerchant: merchant.id,
      merchantName: merchant.name,
      merchantTrxId: 'ORDER-LIST-1',
      platformTrxId: row.platformTrxId,
      amount: 50000,
      fee: { amount: 500, percentage: 0, fixed: 500 },
      netAmount: 49500,
      status: 'success',
      success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      additionalInfo: { rrn: row.rrn, nmid: null },
      createdAt: row.createdAt.toISOString(),
    });

    const count = async (query: Record<string, string>) =>
      (await walk('/api/v1/payin/list', token, { limit: 100, ...query })).length;
    expect(await count({ status: 'failed' })).toBe(5);
    expect(await count({ status: 'success' })).toBe(5);
    expect(await count({ status: 'expired' })).toBe(1);
    expect(await count({ status: 'pending' })).toBe(0);
    const dayAgo = new Date(Date.now() - 24 * 3600_000);
    expect(await count({ to: new Date(dayAgo.getTime() - 3600_000).toISOString() })).toBe(5);
    expect(await count({ from: new Date(dayAgo.getTime() - 3600_000).toISOString(), status: 'success' })).toBe(5);
    expect(await count({ from: dayAgo.toISOString().replace('Z', '+00:00') })).toBe(2);
    // Half-open: a row created exactly at `to` is out, exactly at `from` is in.
    const at = row.createdAt.toISOString();
    expect(await count({ to: at, status: 'success' })).toBe(4);
    expect(await count({ from: at, to: new Date(row.createdAt.getTime() + 1).toISOString(), status: 'success' })).toBe(
      1,
    );
  });

  it('lists disbursements with their public status, never refused attempts, filtered by status', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [100_000_000n]);
    const made = [];
    for (const outcome of ['success', 'failed', 'pending', 'funding'] as const)
      made.push(
        (await createDisbursement(prisma, merchant.id, { amount: 1_000_000n, fee: 250_000n, outcome })).disbursement,
      );
    await prisma.disbursement.update({ where: { id: made[3].id }, data: { status: 'refused' } });

    const all = await get('/api/v1/disbursement/list', token);
    expect(all.status).toBe(200);
    expect(all.body.data.hasMore).toBe(false);
    expect(all.body.data.items.map((i: { merchantTrxId: string }) => i.merchantTrxId)).toEqual(
      [made[2], made[1], made[0]].map((d) => d.merchantTrxId),
    );
    expect(all.body.data.items[1]).toEqual({
      idMerchant: merchant.id,
      merchantName: merchant.name,
      merchantTrxId: made[1].merchantTrxId,
      platformTrxId: made[1].platformTrxId,
      accountNo: '1234567890',
      accountName: 'Budi Santoso',
      amount: 10000,
      fee: { amount: 0, percentage: 0, fixed: 2500 },
      totalAmount: 10000,
      status: 'failed',
      success_at: null,
      failureCode: 'REJECTED_BY_BANK',
      failureReason: 'Rejected by the beneficiary bank',
      createdAt: made[1].createdAt.toISOString(),
    });
    for (const [status, expected] of [
      ['success', [made[0]]],
      ['failed', [made[1]]],
      ['pending', [made[2]]],
    ] as const) {
      const res = await get('/api/v1/disbursement/list', token, { status });
      expect(res.body.data.items.map((i: { platformTrxId: string }) => i.platformTrxId)).toEqual(
        expected.map((d) => d.platformTrxId),
      );
    }
    // A transfer still being funded reads pending, like its inquiry.
    await prisma.disbursement.update({ where: { id: made[3].id }, data: { status: 'funding' } });
    const pending = await get('/api/v1/disbursement/list', token, { status: 'pending' });
    expect(pending.body.data.items.map((i: { platformTrxId: string }) => i.platformTrxId)).toEqual(
      [made[3], made[2]].map((d) => d.platformTrxId),
    );
  });

  it("gives each movement the balance it left: the newest one's is the balance endpoint's, and each older one's is the newer minus its changes", async () => {
    const { merchant, token } = await createMerchant(prisma);
    const payins = await fundMerchant(prisma, merchant.id, [5_000_000n, 3_000_000n]);
    const { disbursement } = await createDisbursement(prisma, merchant.id, {
      amount: 1_000_000n,
      fee: 250_000n,
      outcome: 'failed',
    });
    const unsettled = await insertPayin(prisma, merchant.id, 2_000_000n, 20_000n, 'ORDER-UNSETTLED');
    await ledgerFor(prisma).apply({
      type: 'payin.record',
      commandId: `payin:${unsettled}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      payinId: unsettled,
      amount: '2000000',
      fee: '20000',
    });

    const movements = (await get('/api/v1/balance/movements', token, { limit: 100 })).body.data.items;
    expect(movements.map((m: { type: string }) => m.type)).toEqual([
      'payin.recorded',
      'payout.refunded',
      'payout.debited',
      'settlement.credited',
      'payin.recorded',
      'payin.recorded',
    ]);
    const balance = (await get('/api/v1/payin/balance', token)).body.data.balance;
    expect({ available: movements[0].availableAfter, pending: movements[0].pendingAfter }).toEqual(balance);
    expect(balance).toEqual({ available: 80000, pending: 19800 });
    for (let i = 0; i < movements.length - 1; i++) {
      expect(Math.round((movements[i].availableAfter - movements[i].availableChange) * 100)).toBe(
        Math.round(movements[i + 1].availableAfter * 100),
      );
      expect(Math.round((movements[i].pendingAfter - movements[i].pendingChange) * 100)).toBe(
        Math.round(movements[i + 1].pendingAfter * 100),
      );
    }
    const oldest = movements[movements.length - 1];
    expect({
      available: oldest.availableAfter - oldest.availableChange,
      pending: oldest.pendingAfter - oldest.pendingChange,
    }).toEqual({ available: 0, pending: 0 });
    const payin = await prisma.payin.findUniqueOrThrow({ where: { id: unsettled } });
    expect(movements[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'payin.recorded',
      availableChange: 0,
      pendingChange: 19800,
      availableAfter: 80000,
      pendingAfter: 19800,
      merchantTrxId: 'ORDER-UNSETTLED',
      platformTrxId: payin.platformTrxId,
      settlementId: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(movements[1]).toMatchObject({
      type: 'payout.refunded',
      availableChange: 12500,
      pendingChange: 0,
      merchantTrxId: disbursement.merchantTrxId,
      platformTrxId: disbursement.platformTrxId,
    });
    expect(movements[2]).toMatchObject({ type: 'payout.debited', availableChange: -12500, availableAfter: 67500 });
    expect(movements[3]).toMatchObject({
      type: 'settlement.credited',
      availableChange: 80000,
      pendingChange: -80000,
      merchantTrxId: null,
      settlementId: expect.any(String),
    });
    expect(movements[5].merchantTrxId).toBe(
      (await prisma.payin.findUniqueOrThrow({ where: { id: payins[0] } })).merchantTrxId,
    );

    // Paging through the same list by twos gives the same rows.
    expect(await walk('/api/v1/balance/movements', token, { limit: 2 })).toEqual(
      movements.map((m: { id: string }) => m.id),
    );
  });

  it("isolates merchants: B's cursor, or A's cursor used by B, shows only B's own rows", async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    await bulkPayins(prisma, a.merchant.id, 10);
    await bulkPayins(prisma, b.merchant.id, 3);
    const aPage = await get('/api/v1/payin/list', a.token, { limit: 2 });
    const bIds = new Set(
      (await prisma.payin.findMany({ where: { merchantId: b.merchant.id } })).map((p) => p.platformTrxId),
    );
    const withA = await get('/api/v1/payin/list', b.token, { cursor: aPage.body.data.nextCursor, limit: 100 });
    expect(withA.status).toBe(200);
    for (const item of withA.body.data.items) {
      expect(bIds.has(item.platformTrxId)).toBe(true);
      expect(item.idMerchant).toBe(b.merchant.id);
    }
    expect((await walk('/api/v1/payin/list', b.token, { limit: 1 })).sort()).toEqual([...bIds].sort());
    expect((await get('/api/v1/balance/movements', b.token)).body.data).toEqual({
      items: [],
      nextCursor: null,
      hasMore: false,
    });
  });

  it('400 VALIDATION_ERROR, naming the field, for a bad limit, cursor, date, status or an unknown parameter', async () => {
    const { token } = await createMerchant(prisma);
    const payinCursor = Buffer.from(JSON.stringify(['payin', '2026-11-26T00:00:00.000Z', randomUUID()])).toString(
      'base64url',
    );
    const cases: [string, Record<string, string>, string][] = [
      ['/api/v1/payin/list', { limit: '101' }, 'limit'],
      ['/api/v1/payin/list', { limit: '0' }, 'limit'],
      ['/api/v1/payin/list', { limit: 'ten' }, 'limit'],
      ['/api/v1/payin/list', { limit: '2.5' }, 'limit'],
      ['/api/v1/payin/list', { cursor: 'garbage!' }, 'cursor'],
      ['/api/v1/payin/list', { cursor: 'MTAw' }, 'cursor'],
      ['/api/v1/payin/list', { cursor: payinCursor.slice(0, -3) }, 'cursor'],
      ['/api/v1/disbursement/list', { cursor: payinCursor }, 'cursor'],
      ['/api/v1/balance/movements', { cursor: payinCursor }, 'cursor'],
      ['/api/v1/payin/list', { from: 'yesterday' }, 'from'],
      ['/api/v1/payin/list', { from: '2026-11-01T00:00:00' }, 'from'],
      ['/api/v1/payin/list', { to: '2026-02-30T00:00:00Z' }, 'to'],
      ['/api/v1/payin/list', { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'to'],
      ['/api/v1/payin/list', { status: 'refused' }, 'status'],
      ['/api/v1/disbursement/list', { status: 'expired' }, 'status'],
      ['/api/v1/balance/movements', { status: 'success' }, 'status'],
      ['/api/v1/payin/list', { offset: '20' }, 'offset'],
    ];
    for (const [path, query, field] of cases) {
      const res = await get(path, token, query);
      expect({ path, query, status: res.status }).toEqual({ path, query, status: 400 });
      expect(res.body).toMatchObject({
        logId: expect.any(String),
        status: false,
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(new RegExp(`^${field}`)),
      });
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect((await get('/api/v1/payin/list', token, { limit: '100', cursor: payinCursor })).status).toBe(200);
  });

  it('needs the token like every merchant endpoint, and is in the OpenAPI document', async () => {
    for (const path of ['/api/v1/balance/movements', '/api/v1/payin/list', '/api/v1/disbursement/list']) {
      const res = await request(http).get(path);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: false, code: 'TOKEN_NOT_FOUND' });
    }
    const doc = (await request(http).get('/docs/openapi.json')).body;
    for (const path of ['/api/v1/balance/movements', '/api/v1/payin/list', '/api/v1/disbursement/list']) {
      const op = doc.paths[path].get;
      expect(op.security).toEqual([{ token: [] }]);
      expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['limit', 'cursor', 'from', 'to']),
      );
      expect(op.responses['200'].content['application/json'].schema.properties.data.$ref).toMatch(/Page$/);
      expect(op.responses['400']).toBeDefined();
    }
    expect(doc.components.schemas.BalanceMovementPage.properties.items.items.$ref).toMatch(/BalanceMovementItem$/);
  });
});
