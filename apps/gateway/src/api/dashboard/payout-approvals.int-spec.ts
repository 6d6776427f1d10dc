import type { Server } from 'node:http';
import type { PrismaClient } from '@pay/persistence';
import { createDashboardUser, createMerchant, debitedTransfer, fundMerchant, signInDashboard } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

/**
 * Approval before money leaves on the merchant dashboard (issue 44 part 2): the owner sets the
 * threshold (a recent password, audited), the payouts awaiting approval are listed, another user
 * whose role allows payouts:approve decides each with its password, every decision audited; a user
 * without the role, a wrong password and a second decision are refused.
 */
describe('merchant dashboard API: payout approvals (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await startTestGateway({});
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(() => gateway.close());

  async function userOf(merchantId: number, merchantRole: 'owner' | 'finance' | 'developer' | 'viewer') {
    const user = await createDashboardUser(prisma, { merchantId, merchantRole });
    const s = await signInDashboard(http as Server, user);
    const path = (p: string) => `/dashboard/api/approvals${p}`;
    return {
      ...user,
      get: (p: string) => request(http).get(path(p)).set('Cookie', s.cookie),
      post: (p: string, body: object) =>
        request(http).post(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
      put: (p: string, body: object) =>
        request(http).put(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
      getAt: (url: string) => request(http).get(url).set('Cookie', s.cookie),
      postAt: (url: string, body: object) =>
        request(http).post(url).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
    };
  }

  async function merchantHoldingAPayout() {
    const m = await createMerchant(prisma);
    await fundMerchant(prisma, m.merchant.id, [5_000_000_00n]);
    const owner = await userOf(m.merchant.id, 'owner');
    const set = await owner.put('/settings', { threshold: 500000, ttlSeconds: 7200, batches: false });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ threshold: 500000, ttlSeconds: 7200, batches: false });
    const payout = await debitedTransfer(prisma, m.merchant.id, m.tokenId, { amount: 1_000_000_00n, fee: 2_500_00n });
    expect(payout.approval).toBe('awaiting');
    return { ...m, owner, payout };
  }

  const auditOf = (merchantId: number, action: string) =>
    prisma.$queryRaw<{ target: string; details: Record<string, unknown> }[]>`
      SELECT target, details FROM operator_audit_log WHERE merchant_id = ${merchantId} AND action = ${action}`;

  it('the owner sets the threshold (audited); finance sees the payout awaiting and approves it with its password (audited)', async () => {
    const { merchant, owner, payout } = await merchantHoldingAPayout();
    expect(await auditOf(merchant.id, 'merchant.payout-approvals')).toEqual([
      expect.objectContaining({ target: `merchant:${merchant.id}` }),
    ]);
    const finance = await userOf(merchant.id, 'finance');
    const list = await finance.get('/payouts');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        platformTrxId: payout.platformTrxId,
        amount: 1000000,
        fee: 2500,
        totalAmount: 1002500,
        createdBy: `token:${payout.createdBy?.slice('token:'.length)}`,
      }),
    ]);
    const approved = await finance.post(`/payouts/${payout.platformTrxId}/approve`, {
      password: finance.password,
      note: 'checked',
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ approval: 'approved', decidedBy: `user:${finance.userId}` });
    const row = await prisma.disbursement.findUniqueOrThrow({ where: { id: payout.id } });
    expect(row).toMatchObject({
      approval: 'approved',
      approvalDecidedBy: `user:${finance.userId}`,
      approvalNote: 'checked',
    });
    expect(await auditOf(merchant.id, 'payout.approval')).toEqual([
      {
        target: `payout:${payout.platformTrxId}`,
        details: {
          approval: 'approved',
          merchantTrxId: payout.merchantTrxId,
          platformTrxId: payout.platformTrxId,
          note: 'checked',
        },
      },
    ]);
    expect((await finance.get('/payouts')).body.data).toEqual([]);
    // Decided once: the owner's rejection after it is refused.
    const late = await owner.post(`/payouts/${payout.platformTrxId}/reject`, { password: owner.password });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: false, code: 'PAYOUT_NOT_AWAITING_APPROVAL' });
  });

  it('refuses a role without payouts:approve, a wrong password, another merchant; the owner rejects it', async () => {
    const { merchant, payout, owner } = await merchantHoldingAPayout();
    const developer = await userOf(merchant.id, 'developer');
    const refused = await developer.post(`/payouts/${payout.platformTrxId}/approve`, { password: developer.password });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: false, code: 'ROLE_REQUIRED' });
    // Only the owner sets the settings.
    expect((await developer.put('/settings', { threshold: null, ttlSeconds: 600, batches: false })).body.code).toBe(
      'ROLE_REQUIRED',
    );

    const wrong = await owner.post(`/payouts/${payout.platformTrxId}/reject`, { password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('SIGN_IN_FAILED');

    const other = await createMerchant(prisma);
    const stranger = await userOf(other.merchant.id, 'owner');
    const notTheirs = await stranger.post(`/payouts/${payout.platformTrxId}/approve`, { password: stranger.password });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await prisma.disbursement.findUniqueOrThrow({ where: { id: payout.id } })).approval).toBe('awaiting');

    const rejected = await owner.post(`/payouts/${payout.platformTrxId}/reject`, { password: owner.password });
    expect(rejected.status).toBe(200);
    expect((await prisma.disbursement.findUniqueOrThrow({ where: { id: payout.id } })).approval).toBe('rejected');
    // Only the decision that was taken is in the activity log: the refusals left no row.
    expect((await auditOf(merchant.id, 'payout.approval')).map((r) => r.details.approval)).toEqual(['rejected']);
    expect((await owner.post(`/payouts/${payout.platformTrxId}/cancel`, { password: owner.password })).status).toBe(
      404,
    );
  });

  it('a batch held for approval: the dashboard user who uploaded it cannot approve it; finance approves the whole batch (audited), which the batch then shows', async () => {
    const m = await createMerchant(prisma);
    const owner = await userOf(m.merchant.id, 'owner');
    expect((await owner.put('/settings', { threshold: null, ttlSeconds: 3600, batches: true })).status).toBe(200);
    const batchId = `HELD-${m.merchant.id}-${Date.now()}`;
    const uploaded = await owner.postAt('/dashboard/api/payouts/batch', {
      batchId,
      rows: [{ merchantTrxId: `${batchId}-1`, bankCode: 'BCA', accountNo: '1234567890', amount: 100000 }],
    });
    expect(uploaded.status).toBe(200);
    const finance = await userOf(m.merchant.id, 'finance');
    expect((await finance.get('/batches')).body.data).toEqual([
      expect.objectContaining({
        batchId,
        rowCount: 1,
        acceptedCount: 1,
        acceptedAmount: 100000,
        createdBy: `user:${owner.userId}`,
      }),
    ]);
    const own = await owner.post(`/batches/${batchId}/approve`, { password: owner.password });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('APPROVAL_NOT_ALLOWED');
    const approved = await finance.post(`/batches/${batchId}/approve`, { password: finance.password });
    expect(approved.status).toBe(200);
    // No payout service here: the row is still being checked, and takes the decision when it is recorded.
    expect(approved.body.data).toMatchObject({ batchId, approval: 'approved', payouts: 0 });
    expect((await finance.get('/batches')).body.data).toEqual([]);
    const shown = await owner.getAt(`/dashboard/api/payouts/batch/${batchId}`);
    expect(shown.body.data.approval).toMatchObject({ status: 'approved' });
    expect(await auditOf(m.merchant.id, 'batch.approval')).toEqual([
      { target: `batch:${batchId}`, details: { approval: 'approved', payouts: 0, note: null } },
    ]);
    const unknown = await finance.post(`/batches/NO-SUCH-BATCH/approve`, { password: finance.password });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('BATCH_NOT_FOUND');
  });

  it('settings: bounded expiry, a threshold with at most two decimals, null turns approvals off', async () => {
    const m = await createMerchant(prisma);
    const owner = await userOf(m.merchant.id, 'owner');
    expect((await owner.get('/settings')).body.data).toEqual({ threshold: null, ttlSeconds: 86400, batches: false });
    for (const body of [
      { threshold: 100, ttlSeconds: 599, batches: false },
      { threshold: 100, ttlSeconds: 604801, batches: false },
      { threshold: 100.001, ttlSeconds: 3600, batches: false },
      { threshold: -1, ttlSeconds: 3600, batches: false },
      { threshold: 100, ttlSeconds: 3600 },
    ]) {
      const r = await owner.put('/settings', body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await owner.put('/settings', { threshold: 250000.5, ttlSeconds: 600, batches: true })).body.data).toEqual({
      threshold: 250000.5,
      ttlSeconds: 600,
      batches: true,
    });
    expect((await owner.put('/settings', { threshold: null, ttlSeconds: 600, batches: false })).body.data).toEqual({
      threshold: null,
      ttlSeconds: 600,
      batches: false,
    });
  });
});
