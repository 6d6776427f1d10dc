import fc from 'fast-check';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, fundMerchant } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp } from './gateway.app';
import { AcquirerService } from './payin/acquirer.service';
import { gatewayConfigSchema } from './gateway.config';

/**
 * Property-based fuzzing of every merchant endpoint with generated valid-looking and invalid
 * bodies and headers: never a 5xx, every error in the envelope with a code, and no invalid
 * request changes any state. FUZZ_RUNS scales it (the test command runs a short pass).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const ADMIN_TOKEN = 'fuzz_admin_0123456789abcdef0123456789abcdef';

const ENDPOINTS: { method: 'get' | 'post'; path: string; fields: string[] }[] = [
  { method: 'get', path: '/api/v1/payin/balance', fields: [] },
  { method: 'post', path: '/api/v1/payin/qris/generate', fields: ['merchantTrxId', 'amount', 'expirySeconds', 'withImage'] },
  { method: 'post', path: '/api/v1/payin/qris/inquiry', fields: ['merchantTrxId'] },
  { method: 'post', path: '/api/v1/payin/qris/sandbox/pay', fields: ['merchantTrxId', 'amount', 'status', 'issuer'] },
  { method: 'post', path: '/api/v1/payin/reconFile', fields: ['date'] },
  { method: 'post', path: '/api/v1/disbursement/account-inquiry', fields: ['merchantTrxId', 'accountNo', 'bankCode', 'amount'] },
  { method: 'post', path: '/api/v1/disbursement/transfer', fields: ['merchantTrxId', 'platformTrxId', 'accountNo', 'accountName', 'bankCode', 'amount', 'notifyUrl'] },
  { method: 'post', path: '/api/v1/disbursement/inquiry', fields: ['merchantTrxId'] },
];

// Values that are wrong in every way a client gets them wrong.
const hostile = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, '', ' ', '0', '-1', '1e309', 'NaN', '2026-02-30', '../../etc/passwd', "'; DROP TABLE payins; --", '𝕏'.repeat(30), 'a'.repeat(5000)),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

describe('API fuzzing (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let token: string;
  let merchantId: number;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal', RAIL_SANDBOX_LATENCY_MS: '0', TRANSFER_DECISION_TIMEOUT_MS: '200', ADMIN_TOKEN }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    const m = await createMerchant(prisma);
    token = m.token;
    merchantId = m.merchant.id;
    await fundMerchant(prisma, merchantId, [1_000_000_00n]);
  });
  afterAll(() => gateway.close());

  /** Everything a request could change for this merchant. */
  const snapshot = async () => ({
    balance: await prisma.balance.findUnique({ where: { merchantId } }),
    payins: await prisma.payin.count({ where: { merchantId } }),
    inquiries: await prisma.disbursementInquiry.count({ where: { merchantId } }),
    disbursements: await prisma.disbursement.count({ where: { merchantId } }),
    exports: await prisma.reconExport.count({ where: { merchantId } }),
    outbox: await prisma.outbox.count({ where: { key: String(merchantId) } }),
    events: await prisma.ledgerEvent.count({ where: { merchantId } }),
  });

  it('invalid bodies on every endpoint: 4xx in the envelope with a code, and nothing changes', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS.filter((e) => e.method === 'post')),
        fc.dictionary(fc.constantFrom('merchantTrxId', 'amount', 'accountNo', 'bankCode', 'date', 'notifyUrl', 'platformTrxId', 'accountName', 'status', 'extra', '__proto__', 'constructor'), hostile, { maxKeys: 5 }),
        async (endpoint, body) => {
          // Keep only bodies that cannot be valid: a known-invalid field or a missing required one.
          const invalid = { ...body, extra: body.extra ?? 'not allowed' };
          const res = await request(http)[endpoint.method](endpoint.path).set('token', token).send(invalid);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(res.body).toMatchObject({ status: false, logId: expect.any(String), message: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
        },
      ),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('malformed bodies, headers and tokens never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{', '[]', 'null', '{"amount":', '\u0000', `{"big":"${'x'.repeat(70_000)}"}`)),
        fc.oneof(fc.constant(token), fc.string({ maxLength: 100 }), fc.constant('')),
        async (endpoint, raw, tok) => {
          const res = await request(http)[endpoint.method](endpoint.path).set('token', tok).set('content-type', 'application/json').send(raw);
          // Name the failing input briefly: a 70 KB body would drown the report.
          expect({ endpoint: endpoint.path, body: raw.slice(0, 60), status: res.status < 500 }).toEqual({ endpoint: endpoint.path, body: raw.slice(0, 60), status: true });
          expect(res.body).toMatchObject({ logId: expect.any(String) });
          if (res.status >= 400) expect(res.body).toMatchObject({ status: false, code: expect.stringMatching(/^[A-Z_]+$/) });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('well-formed requests with generated values: never a 5xx, always the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.record({
          merchantTrxId: fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/),
          amount: fc.oneof(fc.integer({ min: 1, max: 20_000_000 }), fc.integer({ min: 100, max: 1_000_000 }).map((n) => n / 100)),
          accountNo: fc.oneof(fc.stringMatching(/^\d{6,20}$/), fc.stringMatching(/^08\d{8,11}$/)),
          bankCode: fc.constantFrom('BCA', 'BNI', 'OVO', 'DANA', 'XYZ'),
          accountName: fc.string({ minLength: 1, maxLength: 30 }),
          platformTrxId: fc.stringMatching(/^DSB\d{8}[A-Z0-9]{12}$/),
          notifyUrl: fc.constantFrom('https://merchant.example/cb', 'http://10.0.0.1/cb'),
          date: fc.constantFrom('2026-11-01', '2026-02-30', '2999-01-01'),
        }),
        async (endpoint, values) => {
          const body = Object.fromEntries(endpoint.fields.filter((f) => f in values).map((f) => [f, values[f as keyof typeof values]]));
          const res = await request(http)[endpoint.method](endpoint.path).set('token', token).send(endpoint.method === 'post' ? body : undefined);
          expect(res.status === 503 ? 'retryable' : res.status < 500 ? 'ok' : `5xx ${JSON.stringify(res.body)}`).not.toMatch(/^5xx/);
          expect(res.body).toMatchObject({ logId: expect.any(String), status: res.status < 400 });
          if (res.status >= 400) expect(res.body.code).toMatch(/^[A-Z_]+$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the internal acquirer endpoint and the ops API: unsigned, unauthenticated or invalid requests change nothing', async () => {
    const acquirer = gateway.app.get(AcquirerService);
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('acquirerReference', 'platformTrxId', 'amount', 'status', 'rrn', 'paidAt', 'extra'), hostile, { maxKeys: 6 }),
        fc.boolean(),
        fc.constantFrom('/ops/merchants', '/ops/settlements/run', '/ops/webhooks/resend-failed'),
        async (body, signed, opsPath) => {
          // Schema-invalid notifications: refused before anything is recorded, signed or not.
          const raw = JSON.stringify({ ...body, extra: 'not allowed' });
          const notification = await request(gateway.internalServer)
            .post('/internal/acquirer/qris/notifications')
            .set('content-type', 'application/json')
            .set('x-acquirer-signature', signed ? acquirer.sign(raw) : 't=1,v1=00')
            .send(raw);
          expect(notification.status).toBe(signed ? 400 : 401);
          expect(notification.body).toMatchObject({ status: false, code: expect.stringMatching(/^[A-Z_]+$/) });
          // The ops API: no token -> 401; a token with an invalid body -> 400.
          const anonymous = await request(gateway.internalServer).post(opsPath).send(body);
          expect(anonymous.status).toBe(401);
          const invalid = await request(gateway.internalServer).post(opsPath).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ ...body, extra: 'not allowed' });
          expect(invalid.status).toBe(400);
          expect(invalid.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    expect(await snapshot()).toEqual(before);
    // Other suites share the database, so look only for traces of these requests: every body carried "extra".
    expect(await prisma.acquirerNotification.count({ where: { body: { contains: '"extra":"not allowed"' } } })).toBe(0);
  });
});
