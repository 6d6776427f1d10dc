import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { type PrismaClient, WebhookDeliveryRepository } from '@pay/persistence';
import {
  createDisbursement,
  createMerchant,
  fundMerchant,
  insertPayin,
  type DashboardSignIn,
  signedInMerchantUser,
} from '@pay/testing';
import { API_SCOPES } from '@pay/domain';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

type DashboardSession = Pick<DashboardSignIn, 'cookie' | 'csrfToken'>;

/** A new merchant user of the merchant, signed in over HTTP (the auth work's helper). */
function signIn(http: App, prisma: PrismaClient, merchantId: number): Promise<DashboardSession> {
  return signedInMerchantUser(prisma, http as Server, merchantId);
}

const PUBLIC_URL = 'https://93.184.216.34/callbacks/payin';

describe('merchant dashboard API: developer settings (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await startTestGateway({ SWAGGER_ENABLED: 'true' });
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(() => gateway.close());

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
    const session = await signIn(http, prisma, m.merchant.id);
    return { ...m, session, api: as(session) };
  }

  it('lists the tokens, issues one (shown once) that works on the API, and revokes it: refused from then on', async () => {
    const { merchant, tokenId, api } = await merchantWithSession();
    const before = await api.get('/developers');
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({
      tokens: [
        {
          id: tokenId,
          label: 'test',
          prefix: expect.any(String),
          createdAt: expect.any(String),
          lastUsedAt: null,
          revokedAt: null,
          scopes: [...API_SCOPES],
        },
      ],
      payinCallbackUrl: null,
      allowlist: { enabled: false, entries: [] },
      availableScopes: [...API_SCOPES],
    });

    const issued = await api.post('/tokens', { label: 'checkout server' });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toEqual({
      id: expect.any(String),
      label: 'checkout server',
      prefix: expect.any(String),
      token: expect.any(String),
      scopes: [...API_SCOPES],
    });
    const { id, token } = issued.body.data;
    expect(token.startsWith(issued.body.data.prefix)).toBe(true);
    const balance = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(balance.status).toBe(200);
    expect(balance.body.data).toEqual({ balance: { available: 0, pending: 0 } });
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id } })).merchantId).toBe(merchant.id);
    const listed = (await api.get('/developers')).body.data.tokens;
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(token); // never shown again

    const revoked = await api.delete(`/tokens/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id, revokedAt: expect.any(String) });
    const refused = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(refused.status).toBe(401);
    expect((await api.get('/developers')).body.data.tokens.find((t: { id: string }) => t.id === id).revokedAt).toBe(
      revoked.body.data.revokedAt,
    );
    expect((await api.delete('/tokens/not-a-token')).status).toBe(404);
    expect((await api.delete(`/tokens/${randomUUID()}`)).status).toBe(404);
    expect((await api.post('/tokens', { label: 'x'.repeat(101) })).body.code).toBe('VALIDATION_ERROR');
  });

  it('issues a token with the scopes chosen, listed with them, refused outside them; unknown or no scopes refused', async () => {
    const { api } = await merchantWithSession();
    const issued = await api.post('/tokens', { label: 'reporting', scopes: ['reports:read', 'balance:read'] });
    expect(issued.status).toBe(201);
    expect(issued.body.data.scopes).toEqual(['balance:read', 'reports:read']);
    const listed = (await api.get('/developers')).body.data.tokens.find(
      (t: { id: string }) => t.id === issued.body.data.id,
    );
    expect(listed.scopes).toEqual(['balance:read', 'reports:read']);
    const token = issued.body.data.token as string;
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);
    const list = await request(http).get('/api/v1/payin/list').set('token', token);
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({
      code: 'SCOPE_REQUIRED',
      message: 'This token does not have the scope payins:read',
    });
    for (const scopes of [['money:print'], []]) {
      const refused = await api.post('/tokens', { label: 'bad', scopes });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(refused.body.message).toMatch(/^scopes/);
    }
  });

  it('rotates the webhook secret: a new one, shown once, stored', async () => {
    const { merchant, api } = await merchantWithSession();
    const old = (await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).webhookSecret;
    const res = await api.post('/webhook-secret/rotate');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      previousExpiresAt: expect.any(String),
    });
    const row = await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } });
    expect(row.webhookSecret).toBe(res.body.data.secret);
    expect(row.webhookSecretPrevious).toBe(old);
    expect((await api.post('/webhook-secret/rotate', { graceHours: 9999 })).status).toBe(400);
  });

  it('reveals the current webhook secret (and after a rotation, how long the old one still signs); a stale password proof is asked again', async () => {
    const { merchant, api } = await merchantWithSession();
    const row = () => prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } });
    const shown = await api.post('/webhook-secret/reveal');
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual({ secret: (await row()).webhookSecret, previousExpiresAt: null });
    const rotated = await api.post('/webhook-secret/rotate');
    const again = await api.post('/webhook-secret/reveal');
    expect(again.body.data).toEqual({
      secret: rotated.body.data.secret,
      previousExpiresAt: rotated.body.data.previousExpiresAt,
    });
    await prisma.$executeRaw`UPDATE dashboard_sessions SET authenticated_at = now() - interval '11 minutes'
      WHERE user_id IN (SELECT id FROM dashboard_users WHERE merchant_id = ${merchant.id})`;
    const stale = await api.post('/webhook-secret/reveal');
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('REAUTH_REQUIRED');
    expect(stale.body).not.toHaveProperty('data');
  });

  it('sends a test callback to the callback URL: a signed callback.test delivery, listed as a test; none without a URL', async () => {
    const { merchant, api } = await merchantWithSession();
    const none = await api.post('/callback-test');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'url' }] });
    expect(await prisma.webhookDelivery.count({ where: { merchantId: merchant.id } })).toBe(0);
    await api.put('/callback-url', { url: PUBLIC_URL });
    const sent = await api.post('/callback-test');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ message: 'Test callback queued', data: { url: PUBLIC_URL } });
    const row = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: sent.body.data.deliveryId } });
    expect(row).toMatchObject({
      eventType: 'callback.test',
      url: PUBLIC_URL,
      status: 'pending',
      disbursementId: null,
      payinId: null,
    });
    expect(JSON.parse(row.body)).toMatchObject({
      id: sent.body.data.eventId,
      type: 'callback.test',
      data: { idMerchant: merchant.id },
    });
    const listed = await api.get('/deliveries');
    expect(listed.body.data.items).toEqual([expect.objectContaining({ id: row.id, kind: 'test' })]);
  });

  it('sets and clears the pay-in callback URL with the ops API rules; a refused URL is 400 and changes nothing', async () => {
    const { merchant, api } = await merchantWithSession();
    const set = await api.put('/callback-url', { url: PUBLIC_URL });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ message: 'Pay-in callback URL set', data: { payinCallbackUrl: PUBLIC_URL } });
    const refusals: [object, string][] = [
      [{ url: 'http://10.0.0.5/cb' }, 'NOTIFY_URL_NOT_ALLOWED'],
      [{ url: 'http://[::ffff:127.0.0.1]/cb' }, 'NOTIFY_URL_NOT_ALLOWED'],
      [{ url: 'ftp://example.com/cb' }, 'VALIDATION_ERROR'],
      [{ url: 'not a url' }, 'VALIDATION_ERROR'],
      [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'VALIDATION_ERROR'],
      [{}, 'VALIDATION_ERROR'],
      [{ url: 42 }, 'VALIDATION_ERROR'],
      [{ url: PUBLIC_URL, merchantId: merchant.id + 1 }, 'VALIDATION_ERROR'],
    ];
    for (const [body, code] of refusals) {
      const res = await api.put('/callback-url', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code });
    }
    expect((await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).payinCallbackUrl).toBe(PUBLIC_URL);
    const cleared = await api.put('/callback-url', { url: null });
    expect(cleared.body).toMatchObject({ message: 'Pay-in callback URL cleared', data: { payinCallbackUrl: null } });
    expect((await api.get('/developers')).body.data.payinCallbackUrl).toBeNull();
  });

  it('replaces the IP allowlist with the ops API rules; a refused list is 400 and changes nothing', async () => {
    const { merchant, api } = await merchantWithSession();
    const set = await api.put('/allowlist', {
      enabled: false,
      entries: ['203.0.113.7', '198.51.100.0/24', '203.0.113.7'],
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ enabled: false, entries: ['203.0.113.7', '198.51.100.0/24'] });
    const refusals: object[] = [
      { enabled: true, entries: ['300.1.1.1'] },
      { enabled: true, entries: ['10.0.0.0/99'] },
      { enabled: true, entries: 'x' },
      { enabled: 'yes', entries: [] },
      { enabled: true },
      { enabled: true, entries: Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`) },
      { enabled: true, entries: [42] },
    ];
    for (const body of refusals) {
      const res = await api.put('/allowlist', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    const row = await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } });
    expect({ enabled: row.ipAllowlistEnabled, entries: row.ipAllowlist }).toEqual({
      enabled: false,
      entries: ['203.0.113.7', '198.51.100.0/24'],
    });
    const enabled = await api.put('/allowlist', { enabled: true, entries: ['203.0.113.7'] });
    expect(enabled.body.data).toEqual({ enabled: true, entries: ['203.0.113.7'] });
    expect((await api.get('/developers')).body.data.allowlist).toEqual({ enabled: true, entries: ['203.0.113.7'] });
  });

  it('lists recent callback deliveries, payout and pay-in, newest first, with their last attempt; only its own', async () => {
    const { merchant, api } = await merchantWithSession();
    const other = await createMerchant(prisma);
    const deliveries = gateway.app.get(WebhookDeliveryRepository);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const { disbursement } = await createDisbursement(prisma, merchant.id, {
      amount: 10_000_00n,
      fee: 0n,
      outcome: 'success',
    });
    const payinId = await insertPayin(prisma, merchant.id, 5_000_00n, 0n, 'PAID-1');
    const otherPayin = await insertPayin(prisma, other.merchant.id, 5_000_00n, 0n, 'PAID-1');
    const make = async (
      merchantId: number,
      subject: { disbursementId: string | null; payinId: string | null },
      eventType: string,
      at: Date,
    ) =>
      deliveries.create(
        { eventId: `evt-${randomUUID()}`, eventType, merchantId, ...subject, url: PUBLIC_URL, body: '{}' },
        at,
      );
    // The payout's callback, written with its final status (decision 0024).
    const payout = await prisma.webhookDelivery.findFirstOrThrow({ where: { disbursementId: disbursement.id } });
    const claimed = await deliveries.claim(payout.id, new Date(), 60_000);
    if (!claimed) throw new Error('delivery not claimable');
    await deliveries.recordAttempt(claimed, {
      startedAt: new Date(),
      latencyMs: 87,
      statusCode: 200,
      error: null,
      responseBody: 'OK',
      outcome: 'delivered',
      nextAttemptAt: null,
    });
    const payin = await make(merchant.id, { disbursementId: null, payinId }, 'payin.succeeded', new Date());
    await make(other.merchant.id, { disbursementId: null, payinId: otherPayin }, 'payin.succeeded', new Date());

    const res = await api.get('/deliveries');
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([
      expect.objectContaining({
        id: payin.id,
        kind: 'payin',
        merchantTrxId: 'PAID-1',
        eventType: 'payin.succeeded',
        status: 'pending',
        attemptCount: 0,
        lastAttempt: null,
      }),
      expect.objectContaining({
        id: payout.id,
        kind: 'payout',
        merchantTrxId: disbursement.merchantTrxId,
        status: 'delivered',
        attemptCount: 1,
        deliveredAt: expect.any(String),
        lastAttempt: {
          attemptNo: 1,
          at: expect.any(String),
          httpStatus: 200,
          latencyMs: 87,
          responseExcerpt: 'OK',
          error: null,
          outcome: 'delivered',
        },
      }),
    ]);
    expect((await api.get('/deliveries', { limit: 1 })).body.data.items.map((d: { id: string }) => d.id)).toEqual([
      payin.id,
    ]);
    expect((await api.get('/deliveries', { limit: 0 })).status).toBe(400);
    expect((await api.get(`/payins/PAID-1`)).body.data.callbacks).toEqual([
      expect.objectContaining({ id: payin.id, attempts: [] }),
    ]);
  });

  it('needs a session (401 SESSION_REQUIRED) and, on a write, the CSRF token (403 CSRF_TOKEN_INVALID); nothing changes', async () => {
    const { merchant, session } = await merchantWithSession();
    const anonymous = await request(http).get('/dashboard/api/overview');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: false, code: 'SESSION_REQUIRED' });
    for (const csrf of [undefined, 'wrong-token']) {
      const req = request(http).post('/dashboard/api/tokens').set('Cookie', session.cookie);
      const res = await (csrf ? req.set('X-CSRF-Token', csrf) : req).send({ label: 'no csrf' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: false, code: 'CSRF_TOKEN_INVALID' });
    }
    const put = await request(http)
      .put('/dashboard/api/allowlist')
      .set('Cookie', session.cookie)
      .send({ enabled: true, entries: [] });
    expect(put.status).toBe(403);
    expect(await prisma.apiToken.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect((await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).ipAllowlistEnabled).toBe(false);
  });

  it('stays out of the OpenAPI document', async () => {
    const doc = (await request(http).get('/docs/openapi.json')).body;
    expect(doc.paths['/api/v1/payin/balance']).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/dashboard'))).toEqual([]);
  });
});
