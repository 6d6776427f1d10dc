import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { LedgerCommand } from '@pay/contracts';
import { type PrismaClient, WebhookDeliveryRepository } from '@pay/persistence';
import {
  createDisbursement,
  createMerchant,
  fundMerchant,
  insertPayin,
  ledgerFor,
  type DashboardSignIn,
  signedInMerchantUser,
} from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

type DashboardSession = Pick<DashboardSignIn, 'cookie' | 'csrfToken'>;

/** A new merchant user of the merchant, signed in over HTTP (the auth work's helper). */
function signIn(http: App, prisma: PrismaClient, merchantId: number): Promise<DashboardSession> {
  return signedInMerchantUser(prisma, http as Server, merchantId);
}

/** Today in Asia/Jakarta, YYYY-MM-DD. */
const jakartaToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

describe('merchant dashboard API: overview, pay-ins, payouts, recon (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let deliveries: WebhookDeliveryRepository;

  beforeAll(async () => {
    gateway = await startTestGateway({
      SANDBOX_MODE: 'true',
    });
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    deliveries = gateway.app.get(WebhookDeliveryRepository);
  });
  afterAll(() => gateway.close());

  /** Requests of one session: cookie on all, the CSRF token on writes. */
  function as(s: DashboardSession) {
    const path = (p: string) => `/dashboard/api${p}`;
    return {
      get: (p: string, query: Record<string, string | number> = {}) =>
        request(http).get(path(p)).query(query).set('Cookie', s.cookie),
      post: (p: string, body: object = {}) =>
        request(http).post(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
      put: (p: string, body: object) =>
        request(http).put(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken).send(body),
      delete: (p: string) => request(http).delete(path(p)).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken),
    };
  }

  async function merchantWithSession() {
    const m = await createMerchant(prisma);
    return { ...m, api: as(await signIn(http, prisma, m.merchant.id)) };
  }

  /** What the ledger worker does with the pay-in's command (no worker runs here). */
  async function recordPayins(merchantId: number) {
    const commands = await prisma.outbox.findMany({ where: { key: String(merchantId), topic: 'ledger.commands.v1' } });
    for (const c of commands) await ledgerFor(prisma).apply(c.payload as unknown as LedgerCommand);
  }

  /** A callback delivery of a disbursement or pay-in, with one attempt recorded. */
  /** A payout's callback as its final status wrote it (decision 0024), or a pay-in's made here; with one attempt recorded. */
  async function deliveryWithAttempt(
    merchantId: number,
    subject: { disbursementId: string } | { payinId: string },
    attempt: { statusCode: number | null; error: string | null; responseBody: string | null },
  ) {
    const written =
      'disbursementId' in subject
        ? await prisma.webhookDelivery.findFirst({ where: { disbursementId: subject.disbursementId } })
        : null;
    const d =
      written ??
      (await deliveries.create(
        {
          eventId: `evt-${randomUUID()}`,
          eventType: 'disbursementId' in subject ? 'disbursement.success' : 'payin.succeeded',
          merchantId,
          disbursementId: 'disbursementId' in subject ? subject.disbursementId : null,
          payinId: 'payinId' in subject ? subject.payinId : null,
          url: 'https://93.184.216.34/cb',
          body: '{}',
        },
        new Date(),
      ));
    const claimed = await deliveries.claim(d.id, new Date(), 60_000);
    if (!claimed) throw new Error('delivery not claimable');
    await deliveries.recordAttempt(claimed, {
      startedAt: new Date(),
      latencyMs: 123,
      ...attempt,
      outcome: 'failed',
      nextAttemptAt: null,
    });
    return d;
  }

  describe('overview', () => {
    it("shows the balance, today's successful pay-ins and live payouts and 30 days, equal to the rows", async () => {
      const { merchant, api } = await merchantWithSession();
      const empty = await api.get('/overview');
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        logId: expect.any(String),
        status: true,
        message: 'Overview',
        data: {
          balance: { available: 0, pending: 0 },
          today: {
            date: jakartaToday(),
            timeZone: 'Asia/Jakarta',
            payins: { count: 0, amount: 0 },
            payouts: { count: 0, amount: 0 },
          },
          daily: expect.any(Array),
        },
      });
      expect(empty.body.data.daily).toHaveLength(30);
      expect(empty.body.data.daily[29]).toEqual({
        date: jakartaToday(),
        payinAmount: 0,
        payinCount: 0,
        payoutAmount: 0,
        payoutCount: 0,
      });

      await fundMerchant(prisma, merchant.id, [1_000_000_00n]); // one successful pay-in of 1,000,000, settled
      await createDisbursement(prisma, merchant.id, { amount: 150_000_00n, fee: 2_500_00n, outcome: 'success' });
      await createDisbursement(prisma, merchant.id, { amount: 20_000_00n, fee: 2_500_00n, outcome: 'pending' });
      await createDisbursement(prisma, merchant.id, { amount: 30_000_00n, fee: 2_500_00n, outcome: 'failed' }); // refunded: not counted
      const paid = await api.post('/payins', { amount: 12_345.67 });
      expect(paid.status).toBe(201);
      await api.post(`/payins/${paid.body.data.merchantTrxId}/simulate`).expect(200);
      const unpaid = await api.post('/payins', { amount: 99_000 }); // pending: not counted
      expect(unpaid.status).toBe(201);
      await recordPayins(merchant.id);

      const res = await api.get('/overview');
      expect(res.status).toBe(200);
      const fee = paid.body.data.fee.amount;
      expect(res.body.data.balance).toEqual({
        available: 1_000_000 - 152_500 - 22_500,
        pending: Number((12_345.67 - fee).toFixed(2)),
      });
      expect(res.body.data.today).toEqual({
        date: jakartaToday(),
        timeZone: 'Asia/Jakarta',
        payins: { count: 2, amount: 1_012_345.67 },
        payouts: { count: 2, amount: 170_000 },
      });
      expect(res.body.data.daily[29]).toEqual({
        date: jakartaToday(),
        payinAmount: 1_012_345.67,
        payinCount: 2,
        payoutAmount: 170_000,
        payoutCount: 2,
      });
      expect(
        res.body.data.daily
          .slice(0, 29)
          .every((d: { payinCount: number; payoutCount: number }) => d.payinCount === 0 && d.payoutCount === 0),
      ).toBe(true);
      const dates = res.body.data.daily.map((d: { date: string }) => d.date);
      expect(dates).toEqual([...dates].sort());
      expect(new Set(dates).size).toBe(30);
    });
  });

  describe('pay-ins', () => {
    it('creates a QRIS code (a DASH- id when none is given), shows it with its QR, pays it in the sandbox: success, and the balance moves', async () => {
      const { merchant, api } = await merchantWithSession();
      const created = await api.post('/payins', { amount: 50000 });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        merchantTrxId: expect.stringMatching(/^DASH-[0-9A-F]{16}$/),
        amount: 50000,
        fee: { amount: 500, percentage: 0.7, fixed: 150 },
        netAmount: 49500,
        status: 'pending',
        qrisPayload: expect.any(String),
        qrImage: expect.stringMatching(/^data:image\/png;base64,/),
      });
      const id = created.body.data.merchantTrxId as string;

      const detail = await api.get(`/payins/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({
        idMerchant: merchant.id,
        merchantTrxId: id,
        status: 'pending',
        qrString: created.body.data.qrisPayload,
        qrImage: expect.stringMatching(/^data:image\/png;base64,/),
        expiredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        callbacks: [],
      });

      const own = await api.post('/payins', { merchantTrxId: 'ORDER-OWN-1', amount: 10000 });
      expect(own.body.data.merchantTrxId).toBe('ORDER-OWN-1');
      expect((await api.post('/payins', { merchantTrxId: 'ORDER-OWN-1', amount: 20000 })).body).toMatchObject({
        status: false,
        code: 'DUPLICATE_MERCHANT_TRX_ID',
      });

      const simulated = await api.post(`/payins/${id}/simulate`);
      expect(simulated.status).toBe(200);
      expect(simulated.body.data).toMatchObject({
        merchantTrxId: id,
        status: 'success',
        qrImage: null,
        success_at: expect.any(String),
        issuer: 'DANA',
      });
      expect((await api.get(`/payins/${id}`)).body.data).toMatchObject({
        status: 'success',
        qrImage: null,
        additionalInfo: { rrn: expect.stringMatching(/^\d{12}$/) },
      });
      expect((await api.post(`/payins/${id}/simulate`)).body).toMatchObject({
        status: false,
        code: 'PAYIN_ALREADY_FINAL',
      });

      expect((await api.get('/overview')).body.data.balance).toEqual({ available: 0, pending: 0 });
      await recordPayins(merchant.id);
      expect((await api.get('/overview')).body.data.balance).toEqual({ available: 0, pending: 49500 });
    });

    it('lists with the history rules: filters, merchantTrxId search, cursor pages; bad input is 400 VALIDATION_ERROR', async () => {
      const { api } = await merchantWithSession();
      for (let i = 0; i < 5; i++)
        expect((await api.post('/payins', { merchantTrxId: `LIST-${i}`, amount: 1000 + i })).status).toBe(201);
      await api.post('/payins/LIST-2/simulate').expect(200);

      const first = await api.get('/payins', { limit: 2 });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        items: [expect.any(Object), expect.any(Object)],
        nextCursor: expect.any(String),
        hasMore: true,
      });
      expect(first.body.data.items.map((i: { merchantTrxId: string }) => i.merchantTrxId)).toEqual([
        'LIST-4',
        'LIST-3',
      ]);
      const rest = await api.get('/payins', { limit: 10, cursor: first.body.data.nextCursor });
      expect(rest.body.data.items.map((i: { merchantTrxId: string }) => i.merchantTrxId)).toEqual([
        'LIST-2',
        'LIST-1',
        'LIST-0',
      ]);
      expect(rest.body.data.hasMore).toBe(false);

      expect(
        (await api.get('/payins', { status: 'success' })).body.data.items.map(
          (i: { merchantTrxId: string }) => i.merchantTrxId,
        ),
      ).toEqual(['LIST-2']);
      expect((await api.get('/payins', { status: 'pending' })).body.data.items).toHaveLength(4);
      const search = await api.get('/payins', { merchantTrxId: 'LIST-3' });
      expect(search.body.data.items).toEqual([
        expect.objectContaining({
          merchantTrxId: 'LIST-3',
          amount: 1003,
          status: 'pending',
          createdAt: expect.any(String),
        }),
      ]);
      expect((await api.get('/payins', { merchantTrxId: 'LIST-3', status: 'success' })).body.data.items).toEqual([]);
      // A prefix finds every id that starts with it, newest first; case matters; LIKE's wildcards are plain characters.
      const ids = async (merchantTrxId: string) =>
        (await api.get('/payins', { merchantTrxId })).body.data.items.map(
          (i: { merchantTrxId: string }) => i.merchantTrxId,
        );
      expect(await ids('LIST-')).toEqual(['LIST-4', 'LIST-3', 'LIST-2', 'LIST-1', 'LIST-0']);
      expect(await ids('LIS')).toEqual(['LIST-4', 'LIST-3', 'LIST-2', 'LIST-1', 'LIST-0']);
      expect(await ids('list-')).toEqual([]);
      expect(await ids('LIST-30')).toEqual([]);
      for (const id of ['P%Q', 'PXQ', 'P_Q', 'P~', 'P~~'])
        expect((await api.post('/payins', { merchantTrxId: id, amount: 1000 })).status).toBe(201);
      expect(await ids('P%')).toEqual(['P%Q']);
      expect(await ids('P_')).toEqual(['P_Q']);
      expect(await ids('P~')).toEqual(['P~~', 'P~']);
      expect(
        (await api.get('/payins', { merchantTrxId: 'LIST-', status: 'success' })).body.data.items.map(
          (i: { merchantTrxId: string }) => i.merchantTrxId,
        ),
      ).toEqual(['LIST-2']);
      expect(
        (await api.get('/payins', { to: new Date(Date.now() - 3_600_000).toISOString() })).body.data.items,
      ).toEqual([]);

      const badQueries: Record<string, string | number>[] = [
        { limit: 101 },
        { limit: 0 },
        { cursor: 'garbage!' },
        { status: 'refused' },
        { from: 'yesterday' },
        { merchantTrxId: 'has space' },
        { merchantId: 1 },
      ];
      for (const query of badQueries) {
        const res = await api.get('/payins', query);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
      }
      for (const body of [
        {},
        { amount: 'lots' },
        { amount: -5 },
        { amount: 1.234 },
        { amount: 1000, merchantTrxId: '' },
        { amount: 1000, merchantId: 2 },
        { amount: 1 },
      ]) {
        const res = await api.post('/payins', body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({
          body,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
      }
      expect((await api.get('/payins/NOPE-404')).body).toMatchObject({ status: false, code: 'TRANSACTION_NOT_FOUND' });
    });
  });

  describe('payouts', () => {
    it('resends a pay-in callback as a payout one: the latest again, none before the pay-in is final, not while an attempt runs', async () => {
      const { merchant, api } = await merchantWithSession();
      const pendingCode = await api.post('/payins', { amount: 25000 });
      expect(pendingCode.status).toBe(201);
      expect((await api.post(`/payins/${pendingCode.body.data.merchantTrxId}/callback/resend`)).body).toMatchObject({
        status: false,
        code: 'NOT_FOUND',
      });
      const payinId = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n);
      const payin = await prisma.payin.findUniqueOrThrow({ where: { id: payinId } });
      const delivery = await deliveryWithAttempt(
        merchant.id,
        { payinId },
        { statusCode: 503, error: null, responseBody: 'down' },
      );
      const detail = await api.get(`/payins/${payin.merchantTrxId}`);
      expect(detail.body.data.callbacks).toEqual([
        expect.objectContaining({ id: delivery.id, attempts: [expect.objectContaining({ httpStatus: 503 })] }),
      ]);
      const resent = await api.post(`/payins/${payin.merchantTrxId}/callback/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body.data).toEqual({ deliveryId: delivery.id, eventId: delivery.eventId, status: 'pending' });
      expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).resendCount).toBe(1);
      await deliveries.claim(delivery.id, new Date(), 60_000);
      expect((await api.post(`/payins/${payin.merchantTrxId}/callback/resend`)).body).toMatchObject({
        status: false,
        code: 'CONFLICT',
      });
    });

    it('lists and shows a payout with every callback attempt, and resends its final callback', async () => {
      const { merchant, api } = await merchantWithSession();
      await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
      const { disbursement: d } = await createDisbursement(prisma, merchant.id, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'success',
      });
      await createDisbursement(prisma, merchant.id, { amount: 50_000_00n, fee: 2_500_00n, outcome: 'failed' });

      const list = await api.get('/payouts');
      expect(list.status).toBe(200);
      expect(list.body.data.items).toHaveLength(2);
      expect(
        (await api.get('/payouts', { status: 'success' })).body.data.items.map(
          (i: { merchantTrxId: string }) => i.merchantTrxId,
        ),
      ).toEqual([d.merchantTrxId]);
      expect((await api.get('/payouts', { merchantTrxId: d.merchantTrxId })).body.data.items).toEqual([
        expect.objectContaining({
          merchantTrxId: d.merchantTrxId,
          amount: 100000,
          totalAmount: 102500,
          status: 'success',
        }),
      ]);
      // A prefix of the id finds it too (the search is a prefix on payouts as on pay-ins).
      expect(
        (await api.get('/payouts', { merchantTrxId: d.merchantTrxId.slice(0, 6) })).body.data.items.map(
          (i: { merchantTrxId: string }) => i.merchantTrxId,
        ),
      ).toContain(d.merchantTrxId);
      expect((await api.get('/payouts', { merchantTrxId: 'PO-' })).body.data.items).toHaveLength(2);
      expect((await api.get('/payouts', { merchantTrxId: 'po-' })).body.data.items).toEqual([]);

      // A payout still in progress has no callback yet.
      const { disbursement: inProgress } = await createDisbursement(prisma, merchant.id, {
        amount: 10_000_00n,
        fee: 2_500_00n,
        outcome: 'pending',
      });
      expect((await api.post(`/payouts/${inProgress.merchantTrxId}/callback/resend`)).body).toMatchObject({
        status: false,
        code: 'NOT_FOUND',
      });

      const delivery = await deliveryWithAttempt(
        merchant.id,
        { disbursementId: d.id },
        { statusCode: 500, error: null, responseBody: `oops ${'x'.repeat(1000)}` },
      );
      const detail = await api.get(`/payouts/${d.merchantTrxId}`);
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({
        merchantTrxId: d.merchantTrxId,
        bankCode: 'BCA',
        status: 'success',
        success_at: expect.any(String),
      });
      expect(detail.body.data.callbacks).toEqual([
        expect.objectContaining({
          id: delivery.id,
          eventId: delivery.eventId,
          status: 'failed',
          attemptCount: 1,
          attempts: [
            {
              attemptNo: 1,
              at: expect.any(String),
              httpStatus: 500,
              latencyMs: 123,
              responseExcerpt: `oops ${'x'.repeat(295)}`,
              error: null,
              outcome: 'failed',
            },
          ],
        }),
      ]);

      const resent = await api.post(`/payouts/${d.merchantTrxId}/callback/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body.data).toEqual({ deliveryId: delivery.id, eventId: delivery.eventId, status: 'pending' });
      expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).resendCount).toBe(1);
      await deliveries.claim(delivery.id, new Date(), 60_000); // an attempt in progress
      expect((await api.post(`/payouts/${d.merchantTrxId}/callback/resend`)).body).toMatchObject({
        status: false,
        code: 'CONFLICT',
      });
    });
  });

  describe('recon', () => {
    it('queues an export of a day and reports its state and download link by job id', async () => {
      const { merchant, api } = await merchantWithSession();
      const started = await api.post('/recon', { date: jakartaToday() });
      expect(started.status).toBe(200);
      expect(started.body.data).toEqual({
        jobId: expect.any(String),
        date: jakartaToday(),
        type: 'payins',
        status: 'queued',
      });
      const { jobId } = started.body.data;
      expect((await api.post('/recon', { date: jakartaToday() })).body.data.jobId).toBe(jobId); // the same job while it runs
      expect((await api.get(`/recon/${jobId}`)).body.data).toEqual({
        jobId,
        date: jakartaToday(),
        type: 'payins',
        status: 'queued',
      });
      // The day's payouts file is an export of its own.
      const payouts = await api.post('/recon', { date: jakartaToday(), type: 'payouts' });
      expect(payouts.body.data).toEqual({
        jobId: expect.any(String),
        date: jakartaToday(),
        type: 'payouts',
        status: 'queued',
      });
      expect(payouts.body.data.jobId).not.toBe(jobId);

      await prisma.reconExport.update({
        where: { id: jobId },
        data: { status: 'ready', objectKey: `recon/${merchant.id}/x.csv`, dataAsOf: new Date(), rowCount: 0 },
      });
      const ready = await api.get(`/recon/${jobId}`);
      expect(ready.body.data).toEqual({
        jobId,
        date: jakartaToday(),
        type: 'payins',
        status: 'ready',
        download: expect.stringMatching(/^https?:\/\//),
      });

      for (const date of ['2026-13-01', 'yesterday', '2999-01-01'])
        expect((await api.post('/recon', { date })).body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
      expect((await api.post('/recon', { date: jakartaToday(), type: 'refunds' })).body).toMatchObject({
        status: false,
        code: 'VALIDATION_ERROR',
      });
      expect((await api.get('/recon/not-a-job')).status).toBe(404);
      expect((await api.get(`/recon/${randomUUID()}`)).status).toBe(404);
    });
  });

  describe('tenant isolation', () => {
    it("merchant A's session cannot read, pay, resend, revoke or export anything of merchant B: 404 as for what does not exist", async () => {
      const a = await merchantWithSession();
      const b = await merchantWithSession();
      // The same merchantTrxId at both: each sees its own.
      await a.api.post('/payins', { merchantTrxId: 'SAME-1', amount: 10000 }).expect(201);
      await b.api.post('/payins', { merchantTrxId: 'SAME-1', amount: 20000 }).expect(201);
      await b.api.post('/payins', { merchantTrxId: 'B-ONLY', amount: 30000 }).expect(201);
      await fundMerchant(prisma, b.merchant.id, [1_000_000_00n]);
      const { disbursement: bPayout } = await createDisbursement(prisma, b.merchant.id, {
        amount: 10_000_00n,
        fee: 0n,
        outcome: 'success',
      });
      await deliveryWithAttempt(
        b.merchant.id,
        { disbursementId: bPayout.id },
        { statusCode: 200, error: null, responseBody: 'ok' },
      );
      const bJob = (await b.api.post('/recon', { date: jakartaToday() })).body.data.jobId as string;

      expect((await a.api.get('/payins/SAME-1')).body.data).toMatchObject({ idMerchant: a.merchant.id, amount: 10000 });
      const notFound: [string, Promise<request.Response>][] = [
        ['pay-in', a.api.get('/payins/B-ONLY')],
        ['simulate', a.api.post('/payins/B-ONLY/simulate')],
        ['payout', a.api.get(`/payouts/${bPayout.merchantTrxId}`)],
        ['resend', a.api.post(`/payouts/${bPayout.merchantTrxId}/callback/resend`)],
        ['revoke', a.api.delete(`/tokens/${b.tokenId}`)],
        ['recon job', a.api.get(`/recon/${bJob}`)],
      ];
      const answers = [];
      for (const [what, res] of notFound) {
        const { status, body } = await res;
        expect({ what, status }).toEqual({ what, status: 404 });
        answers.push(body);
      }
      const never = await a.api.get('/payins/NEVER-MADE');
      expect({ code: answers[0].code, message: answers[0].message }).toEqual({
        code: never.body.code,
        message: never.body.message,
      });

      expect(
        (await prisma.payin.findFirstOrThrow({ where: { merchantId: b.merchant.id, merchantTrxId: 'B-ONLY' } })).status,
      ).toBe('pending');
      expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: b.tokenId } })).revokedAt).toBeNull();
      expect(
        (await prisma.webhookDelivery.findFirstOrThrow({ where: { disbursementId: bPayout.id } })).resendCount,
      ).toBe(0);
      await request(http).get('/api/v1/payin/balance').set('token', b.token).expect(200);

      const aPayins = (await a.api.get('/payins', { limit: 100 })).body.data.items.map(
        (i: { merchantTrxId: string }) => i.merchantTrxId,
      );
      expect(aPayins).toEqual(['SAME-1']);
      expect((await a.api.get('/payins', { merchantTrxId: 'B-ONLY' })).body.data.items).toEqual([]);
      expect((await a.api.get('/payouts')).body.data.items).toEqual([]);
      expect((await a.api.get('/deliveries')).body.data.items).toEqual([]);
      expect((await a.api.get('/overview')).body.data.balance).toEqual({ available: 0, pending: 0 });
      // Nothing in a query or body names a merchant.
      expect((await a.api.get('/payouts', { merchantId: b.merchant.id })).status).toBe(400);
      expect((await a.api.post('/payins', { amount: 10000, merchantId: b.merchant.id })).status).toBe(400);
    });
  });
});

describe('merchant dashboard API with SANDBOX_MODE off', () => {
  let gateway: GatewayApp;

  beforeAll(async () => {
    gateway = await startTestGateway({ SANDBOX_MODE: 'false' });
  });
  afterAll(() => gateway.close());

  it('has no simulate: 404, and the code stays unpaid', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const s = await signIn(gateway.app.getHttpServer(), gateway.prisma, merchant.id);
    const http = gateway.app.getHttpServer();
    const created = await request(http)
      .post('/dashboard/api/payins')
      .set('Cookie', s.cookie)
      .set('X-CSRF-Token', s.csrfToken)
      .send({ amount: 10000 });
    expect(created.status).toBe(201);
    const res = await request(http)
      .post(`/dashboard/api/payins/${created.body.data.merchantTrxId}/simulate`)
      .set('Cookie', s.cookie)
      .set('X-CSRF-Token', s.csrfToken)
      .send({});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    expect((await gateway.prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id } })).status).toBe(
      'pending',
    );
  });
});
