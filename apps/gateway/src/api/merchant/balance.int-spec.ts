import { randomUUID } from 'node:crypto';
import { parseAmount } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import request from 'supertest';
import type { App } from 'supertest/types';
import { changeUnannounced, createMerchant, fundMerchant, insertSuccessfulPayin, ledgerFor } from '@pay/testing';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('GET /api/v1/payin/balance (real Postgres)', () => {
  let gateway: GatewayApp;
  let trusting: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    const env = { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal', SWAGGER_ENABLED: 'true' };
    gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, env));
    // A second gateway behind a trusted local proxy, to exercise X-Forwarded-For.
    trusting = await createGatewayApp(loadConfig(gatewayConfigSchema, { ...env, TRUSTED_PROXIES: 'loopback' }));
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(async () => {
    for (const g of [gateway, trusting]) await g.close();
  });

  it('answers with the exact success envelope and live values from the projection', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const ledger = ledgerFor(prisma);
    // Two successful pay-ins of 50000 with fee 500: one settled, one not.
    const settled = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(50000), parseAmount(500));
    const unsettled = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(50000), parseAmount(500));
    const issuedAt = new Date().toISOString();
    for (const payinId of [settled, unsettled]) {
      await ledger.apply({
        type: 'payin.record',
        commandId: `payin:${payinId}`,
        merchantId: merchant.id,
        issuedAt,
        payinId,
        amount: '5000000',
        fee: '50000',
      });
    }
    await ledger.apply({
      type: 'settlement.credit',
      commandId: `s:${settled}`,
      merchantId: merchant.id,
      issuedAt,
      settlementId: randomUUID(),
      payinIds: [settled],
    });
    await ledger.apply({
      type: 'payout.debit',
      commandId: `d:${settled}`,
      merchantId: merchant.id,
      issuedAt,
      payoutId: 'P1',
      amount: '1000050',
      fee: '0',
    });

    const res = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'logId', 'message', 'status']);
    expect(res.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: true,
      message: 'Balance inquiry successful',
      data: { balance: { available: 39499.5, pending: 49500 } },
    });
    expect(res.headers['x-log-id']).toBe(res.body.logId);
  });

  it('gives a new merchant zeros, and every response its own logId', async () => {
    const { token } = await createMerchant(prisma);
    const [a, b] = await Promise.all([0, 1].map(() => request(http).get('/api/v1/payin/balance').set('token', token)));
    expect(a.body.data).toEqual({ balance: { available: 0, pending: 0 } });
    expect(a.body.logId).not.toBe(b.body.logId);
  });

  it('401 Token not found when the header is missing or blank', async () => {
    for (const req of [
      request(http).get('/api/v1/payin/balance'),
      request(http).get('/api/v1/payin/balance').set('token', '  '),
    ]) {
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        logId: expect.stringMatching(UUID),
        status: false,
        message: 'Token not found',
        code: 'TOKEN_NOT_FOUND',
      });
    }
  });

  it('a token sent as Authorization: Bearer is told where it goes (still 401 TOKEN_NOT_FOUND)', async () => {
    const { token } = await createMerchant(prisma);
    const res = await request(http).get('/api/v1/payin/balance').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: false,
      message: 'Token not found: send the API token in the `token` header (Authorization is not read)',
      code: 'TOKEN_NOT_FOUND',
    });
  });

  it('401 Token not valid for an unknown token and for a revoked one', async () => {
    const { token, tokenId, admin } = await createMerchant(prisma);
    const unknown = await request(http).get('/api/v1/payin/balance').set('token', 'mtk_not-a-real-token');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Token not valid',
      code: 'TOKEN_NOT_VALID',
    });

    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);
    await admin.revokeToken(tokenId);
    const revoked = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('Token not valid');
  });

  it('reads the balance with the token on every request: a booking, a deactivation and a revocation show on the very next one', async () => {
    // The token check and the balance are one statement (@BalanceWithToken): the balance is never cached, nor is whether the token is valid.
    const { merchant, token, tokenId, admin } = await createMerchant(prisma);
    const get = () => request(http).get('/api/v1/payin/balance').set('token', token);
    expect((await get()).body.data).toEqual({ balance: { available: 0, pending: 0 } });

    const payinId = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(50000), parseAmount(500));
    await ledgerFor(prisma).apply({
      type: 'payin.record',
      commandId: `payin:${payinId}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      payinId,
      amount: '5000000',
      fee: '50000',
    });
    const booked = await get();
    expect(booked.status).toBe(200);
    expect(booked.body.data).toEqual({ balance: { available: 0, pending: 49500 } });
    expect(booked.headers['ratelimit-limit']).toBeDefined();

    await admin.setActive(merchant.id, false);
    expect((await get()).body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Merchant not active',
      code: 'MERCHANT_NOT_ACTIVE',
    });
    await admin.setActive(merchant.id, true);
    expect((await get()).status).toBe(200);

    await admin.revokeToken(tokenId);
    const revoked = await get();
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Token not valid',
      code: 'TOKEN_NOT_VALID',
    });
  });

  it('a token in the auth cache has its balance read checked all the same: revoked, deactivated or allowlisted unheard of, refused at once', async () => {
    // changeUnannounced: no NOTIFY, so the gateway's auth cache still holds the token and its merchant.
    const unannounced = (text: string, values: unknown[]) =>
      changeUnannounced(process.env.DATABASE_URL as string, text, values);
    const { merchant, token, tokenId } = await createMerchant(prisma);
    const get = () => request(http).get('/api/v1/payin/balance').set('token', token);
    expect((await get()).status).toBe(200); // the token is now in the auth cache
    await fundMerchant(prisma, merchant.id, [150_000n]);
    expect((await get()).body.data).toEqual({ balance: { available: 1500, pending: 0 } });

    await unannounced('UPDATE merchants SET is_active = false WHERE id = $1', [merchant.id]);
    expect((await get()).body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Merchant not active',
      code: 'MERCHANT_NOT_ACTIVE',
    });
    await unannounced('UPDATE merchants SET is_active = true WHERE id = $1', [merchant.id]);
    expect((await get()).body.data).toEqual({ balance: { available: 1500, pending: 0 } });

    // The allowlist too is read with the balance, not taken from the cache.
    await unannounced(
      `UPDATE merchants SET ip_allowlist = '{203.0.113.0/24}', ip_allowlist_enabled = true WHERE id = $1`,
      [merchant.id],
    );
    expect((await get()).body).toMatchObject({ status: false, code: 'IP_NOT_ALLOWED' });
    await unannounced(`UPDATE merchants SET ip_allowlist = '{127.0.0.1,::1}' WHERE id = $1`, [merchant.id]);
    expect((await get()).status).toBe(200);

    await unannounced('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [tokenId]);
    const revoked = await get();
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Token not valid',
      code: 'TOKEN_NOT_VALID',
    });
  });

  it('a merchant may hold several tokens; revoking one leaves the others working', async () => {
    const { merchant, token, tokenId, admin } = await createMerchant(prisma);
    const second = await admin.issueToken(merchant.id, 'second');
    await admin.revokeToken(tokenId);
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(401);
    expect((await request(http).get('/api/v1/payin/balance').set('token', second.token)).status).toBe(200);
  });

  it('401 Merchant not active for a deactivated merchant', async () => {
    const { token } = await createMerchant(prisma, { isActive: false });
    const res = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Merchant not active',
      code: 'MERCHANT_NOT_ACTIVE',
    });
  });

  it('403 IP_NOT_ALLOWED when the allowlist is on and the caller is not in it', async () => {
    const { merchant, token, admin } = await createMerchant(prisma);
    await admin.setAllowlist(merchant.id, ['203.0.113.0/24', '2001:db8::/32']);
    // Listed but not enabled: no effect.
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);

    await admin.setAllowlistEnabled(merchant.id, true);
    const refused = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: false,
      message: 'Access is not allowed from this IP address',
      code: 'IP_NOT_ALLOWED',
    });

    // Loopback (the test client) allowed by address, IPv4 and IPv6 forms.
    await admin.setAllowlist(merchant.id, ['127.0.0.1', '::1']);
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted, then matches CIDR ranges of IPv4 and IPv6', async () => {
    const { merchant, token, admin } = await createMerchant(prisma);
    await admin.setAllowlist(merchant.id, ['203.0.113.0/24', '2001:db8::/32']);
    await admin.setAllowlistEnabled(merchant.id, true);

    // Untrusted: a client cannot claim an allowed address.
    const spoofed = await request(http)
      .get('/api/v1/payin/balance')
      .set('token', token)
      .set('X-Forwarded-For', '203.0.113.9');
    expect(spoofed.status).toBe(403);

    const viaProxy = (ip: string) =>
      request(trusting.app.getHttpServer()).get('/api/v1/payin/balance').set('token', token).set('X-Forwarded-For', ip);
    expect((await viaProxy('203.0.113.9')).status).toBe(200);
    expect((await viaProxy('2001:db8:abcd::1')).status).toBe(200);
    expect((await viaProxy('198.51.100.1')).status).toBe(403);
    expect((await viaProxy('2001:db9::1')).status).toBe(403);
  });

  it('unknown routes get the error envelope with a logId', async () => {
    const res = await request(http).get('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: false,
      message: 'Route not found',
      code: 'NOT_FOUND',
    });
  });

  it('serves health, readiness, metrics (on the internal port) and the OpenAPI document', async () => {
    expect((await request(http).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(http).get('/readyz')).body).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    expect((await request(gateway.internalServer).get('/metrics')).text).toContain('process_cpu_user_seconds_total');
    const doc = await request(http).get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/api/v1/payin/balance'].get).toBeDefined();
    expect((await request(http).get('/docs')).text).toContain('swagger');
  });
});
