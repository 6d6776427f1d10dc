import fc from 'fast-check';
import { type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { loadConfig } from '@pay/platform';
import { createMerchant, fundMerchant } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp } from './gateway.app';
import { AcquirerService } from './services/payin/acquirer.service';
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
  {
    method: 'post',
    path: '/api/v1/payin/qris/generate',
    fields: ['merchantTrxId', 'amount', 'expirySeconds', 'withImage'],
  },
  { method: 'post', path: '/api/v1/payin/qris/inquiry', fields: ['merchantTrxId'] },
  { method: 'post', path: '/api/v1/payin/qris/sandbox/pay', fields: ['merchantTrxId', 'amount', 'status', 'issuer'] },
  { method: 'post', path: '/api/v1/payin/reconFile', fields: ['date'] },
  {
    method: 'post',
    path: '/api/v1/disbursement/account-inquiry',
    fields: ['merchantTrxId', 'accountNo', 'bankCode', 'amount'],
  },
  {
    method: 'post',
    path: '/api/v1/disbursement/transfer',
    fields: ['merchantTrxId', 'platformTrxId', 'accountNo', 'accountName', 'bankCode', 'amount', 'notifyUrl'],
  },
  { method: 'post', path: '/api/v1/disbursement/inquiry', fields: ['merchantTrxId'] },
];

// Values that are wrong in every way a client gets them wrong.
const hostile = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    null,
    true,
    false,
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    '2026-02-30',
    '../../etc/passwd',
    "'; DROP TABLE payins; --",
    '𝕏'.repeat(30),
    'a'.repeat(5000),
  ),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

// Hostile pieces of raw JSON text (JSON.stringify cannot write 1e400 or -0, nor a lone surrogate escape).
// NUL weighs most: it is the one PostgreSQL refuses outright.
const controlChar = fc.oneof(
  { weight: 1, arbitrary: fc.constant('\u0000') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f'),
  },
);
const oddUnicode = fc.constantFrom(
  '\ud800',
  '\udfff',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\uffff',
  'e\u0301',
  '🏳️‍🌈',
  'Ⅻ',
  '١٢٣',
  '𝟙𝟚𝟛',
);
const hostileString = fc.oneof(
  fc.tuple(fc.string({ maxLength: 10 }), controlChar, fc.string({ maxLength: 10 })).map(([a, c, b]) => a + c + b),
  fc.tuple(fc.string({ maxLength: 5 }), oddUnicode, fc.string({ maxLength: 5 })).map(([a, u, b]) => a + u + b),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('1e400', '50000', '-0', 'NaN', 'Infinity', '0x10', ' 50000 '),
);
// Up to 8,000 characters of openers: deep enough to overflow a recursive walk, small enough that six stay under the 64 KB body limit.
const nested = (open: string, leaf: string, close: string) =>
  fc.integer({ min: 1, max: Math.floor(8000 / open.length) }).map((d) => open.repeat(d) + leaf + close.repeat(d));
const rawValue = fc.oneof(
  hostileString.map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '0',
    '1e-400',
    '4.9e-324',
    '1.7976931348623157e308',
    '99999999999999999999999999',
    '50000.001',
    '-50000',
    '"\\ud800"',
    '"\\u0000"',
    'true',
    'null',
    '[]',
    '{}',
  ),
  fc.double().map((n) => JSON.stringify(n)),
  nested('[', '', ']'),
  nested('{"a":', '1', '}'),
);
/** A JSON object text with the given fields (and maybe others) set to hostile raw values, or a whole hostile document. */
const rawBody = (fields: string[]) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...fields, 'extra', '__proto__', 'a\u0000b'), rawValue, { maxKeys: 6 }).map(
      (o) =>
        `{${Object.entries(o)
          .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
          .join(',')}}`,
    ),
    rawValue,
    nested('[', '', ''),
  );
/** 'ok' for any answer below 500 (or the one allowed 5xx); the status otherwise, so a failure names it beside its input. */
const verdict = (status: number, allowed?: number) =>
  status < 500 || status === allowed ? 'ok' : `answered ${status}`;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
/** Latin-1 without controls: what an HTTP client can put in a header at all. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });

describe('API fuzzing (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let token: string;
  let merchantId: number;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
        TRANSFER_DECISION_TIMEOUT_MS: '200',
        ADMIN_TOKEN,
        RATE_LIMIT_REFUSAL_DELAY_MS: '0',
      }),
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
        fc.dictionary(
          fc.constantFrom(
            'merchantTrxId',
            'amount',
            'accountNo',
            'bankCode',
            'date',
            'notifyUrl',
            'platformTrxId',
            'accountName',
            'status',
            'extra',
            '__proto__',
            'constructor',
          ),
          hostile,
          { maxKeys: 5 },
        ),
        async (endpoint, body) => {
          // Keep only bodies that cannot be valid: a known-invalid field or a missing required one.
          const invalid = { ...body, extra: body.extra ?? 'not allowed' };
          const res = await request(http)[endpoint.method](endpoint.path).set('token', token).send(invalid);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(res.body).toMatchObject({
            status: false,
            logId: expect.any(String),
            message: expect.any(String),
            code: expect.stringMatching(/^[A-Z_]+$/),
          });
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
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constantFrom('{', '[]', 'null', '{"amount":', '\u0000', `{"big":"${'x'.repeat(70_000)}"}`),
        ),
        fc.oneof(fc.constant(token), fc.string({ maxLength: 100 }), fc.constant('')),
        async (endpoint, raw, tok) => {
          const res = await request(http)
            [endpoint.method](endpoint.path)
            .set('token', tok)
            .set('content-type', 'application/json')
            .send(raw);
          // Name the failing input briefly: a 70 KB body would drown the report.
          expect({ endpoint: endpoint.path, body: raw.slice(0, 60), status: res.status < 500 }).toEqual({
            endpoint: endpoint.path,
            body: raw.slice(0, 60),
            status: true,
          });
          expect(res.body).toMatchObject({ logId: expect.any(String) });
          if (res.status >= 400)
            expect(res.body).toMatchObject({ status: false, code: expect.stringMatching(/^[A-Z_]+$/) });
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
          amount: fc.oneof(
            fc.integer({ min: 1, max: 20_000_000 }),
            fc.integer({ min: 100, max: 1_000_000 }).map((n) => n / 100),
          ),
          accountNo: fc.oneof(fc.stringMatching(/^\d{6,20}$/), fc.stringMatching(/^08\d{8,11}$/)),
          bankCode: fc.constantFrom('BCA', 'BNI', 'OVO', 'DANA', 'XYZ'),
          accountName: fc.string({ minLength: 1, maxLength: 30 }),
          platformTrxId: fc.stringMatching(/^DSB\d{8}[A-Z0-9]{12}$/),
          notifyUrl: fc.constantFrom('https://merchant.example/cb', 'http://10.0.0.1/cb'),
          date: fc.constantFrom('2026-11-01', '2026-02-30', '2999-01-01'),
        }),
        async (endpoint, values) => {
          const body = Object.fromEntries(
            endpoint.fields.filter((f) => f in values).map((f) => [f, values[f as keyof typeof values]]),
          );
          const res = await request(http)
            [endpoint.method](endpoint.path)
            .set('token', token)
            .send(endpoint.method === 'post' ? body : undefined);
          expect(
            res.status === 503 ? 'retryable' : res.status < 500 ? 'ok' : `5xx ${JSON.stringify(res.body)}`,
          ).not.toMatch(/^5xx/);
          expect(res.body).toMatchObject({ logId: expect.any(String), status: res.status < 400 });
          if (res.status >= 400) expect(res.body.code).toMatch(/^[A-Z_]+$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('callback URLs that hide a private IPv4 address (IPv6 embeddings, numeric forms): refused with 400, never a 5xx, nothing changes', async () => {
    // The earlier properties spent the write budget, and this one sends 150 transfers at once: the callback check is what is fuzzed here.
    await new MerchantAdmin(prisma).setRateLimits(merchantId, { write: 100_000 });
    // A refusal the gateway holds in memory from those properties stands until its Retry-After (at most 1 s).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = await snapshot();
    const octet = fc.integer({ min: 0, max: 255 });
    // Loopback, private, carrier-grade NAT, link-local (cloud metadata) and "this network" addresses.
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(127), octet, octet, octet),
      fc.tuple(fc.constant(10), octet, octet, octet),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
      fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
      fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
      fc.tuple(fc.constant(0), octet, octet, octet),
    );
    const hex16 = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    const host = fc
      .tuple(privateV4, fc.integer({ min: 0, max: 9 }), fc.boolean())
      .map(([[a, b, c, d], form, upper]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const words = `${hex16(a, b)}:${hex16(c, d)}`;
        const forms = [
          `[::${dotted}]`, // IPv4-compatible
          `[::${words}]`,
          `[::ffff:${dotted}]`, // IPv4-mapped
          `[0:0:0:0:0:ffff:${words}]`,
          `[::ffff:0:${dotted}]`, // IPv4-translated
          `[64:ff9b::${dotted}]`, // NAT64
          `[2002:${words}::1]`, // 6to4
          String(((a << 24) >>> 0) + (b << 16) + (c << 8) + d), // one decimal number
          `0x${((a << 24) >>> 0).toString(16)}.${b}.${c}.${d}`.replace(/^0x0\./, '0x0.'),
          dotted,
        ];
        const chosen = forms[form];
        return upper ? chosen.toUpperCase() : chosen;
      });
    await fc.assert(
      fc.asyncProperty(
        host,
        fc.constantFrom('http', 'https'),
        fc.constantFrom('', ':8080', ':443'),
        async (h, scheme, port) => {
          const notifyUrl = `${scheme}://${h}${port}/callback`;
          const res = await request(http).post('/api/v1/disbursement/transfer').set('token', token).send({
            merchantTrxId: 'FUZZ-SSRF-1',
            platformTrxId: 'DSB20261123ABCDEFGHIJKL',
            accountNo: '1234567890',
            accountName: 'Budi',
            bankCode: 'BCA',
            amount: 50000,
            notifyUrl,
          });
          expect({ notifyUrl, status: res.status, code: res.body.code }).toEqual({
            notifyUrl,
            status: 400,
            code: expect.stringMatching(/^(NOTIFY_URL_NOT_ALLOWED|VALIDATION_ERROR)$/),
          });
        },
      ),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('the internal acquirer endpoint and the ops API: unsigned, unauthenticated or invalid requests change nothing', async () => {
    const acquirer = gateway.app.get(AcquirerService);
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('acquirerReference', 'platformTrxId', 'amount', 'status', 'rrn', 'paidAt', 'extra'),
          hostile,
          { maxKeys: 6 },
        ),
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
          const invalid = await request(gateway.internalServer)
            .post(opsPath)
            .set('authorization', `Bearer ${ADMIN_TOKEN}`)
            .send({ ...body, extra: 'not allowed' });
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

  it('any method, path, token and raw body, from anyone: never a 500', async () => {
    const paths = [
      ...ENDPOINTS.map((e) => e.path),
      '/internal/acquirer/qris/notifications',
      '/ops/merchants',
      '/api/v1/nothing',
      '/api/v1/payin/balance?x=%ff',
      '/api/v1/payin/qris/generate/',
      '//api/v1/payin/balance',
      '/api/v1/%00',
      '/docs/openapi.json',
      // Static roots: a path that climbs out (more in kernel/static/static-paths.int-spec.ts)
      '/docs/..%2f..%2fpackage.json',
      '/docs/swagger-ui.css%00',
      '/ops/queues/static/..%2f..%2fpackage.json',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.constantFrom(...paths),
        fc.oneof(fc.constant(token), fc.constant(undefined), headerText(80)),
        rawBody(ENDPOINTS.flatMap((e) => e.fields)),
        // Either port: the public one refuses internal paths, the internal one serves them.
        fc.boolean(),
        async (method, path, tok, raw, internal) => {
          let req = request(internal ? gateway.internalServer : http)
            [method](path)
            .set('content-type', 'application/json');
          if (tok !== undefined) req = req.set('token', tok);
          const res = await req.send(raw);
          // A 503 is a retryable answer (a transfer still processing), not a failure.
          expect({ method, path, body: raw.slice(0, 80), verdict: verdict(res.status, 503) }).toEqual({
            method,
            path,
            body: raw.slice(0, 80),
            verdict: 'ok',
          });
          if (method !== 'head' && res.status >= 400)
            expect(res.body).toMatchObject({
              status: false,
              logId: expect.any(String),
              code: expect.stringMatching(/^[A-Z_]+$/),
            });
          if (res.status === 405) expect(res.headers.allow).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('acquirer notifications with odd signatures and hostile fields, signed or not: never a 500', async () => {
    const acquirer = gateway.app.get(AcquirerService);
    const pending: string[] = [];
    // Forty codes at once would meet the write limit (50/s) if it were the default: this setup is not what is fuzzed here.
    await new MerchantAdmin(prisma).setRateLimits(merchantId, { write: 100_000 });
    // Enough pending codes that accepted notifications do not use them all up: a hostile field only reaches the database on a payment.
    for (let i = 0; i < 40; i++) {
      const res = await request(http)
        .post('/api/v1/payin/qris/generate')
        .set('token', token)
        .send({ merchantTrxId: `FUZZ-ACQ-${i}-${Date.now()}`, amount: 50000 });
      pending.push(res.body.data.platformTrxId);
    }
    const now = () => Math.floor(Date.now() / 1000);
    const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
    const oddSignature = fc.oneof(
      hex(64).map((h) => `t=${now()},v1=${h}`),
      // 64 characters, not all hex: the length a SHA-256 hex digest has, so only the hex check stands in the way.
      fc
        .tuple(
          hex(63),
          fc.nat(63),
          headerText(1).filter((c) => c.length === 1 && !/[0-9a-f]/i.test(c)),
        )
        .map(([h, i, c]) => `t=${now()},v1=${h.slice(0, i)}${c}${h.slice(i)}`),
      headerText(64).map((v) => `t=${now()},v1=${v}`),
      fc
        .integer({ min: 0, max: 200 })
        .chain((n) => hex(n))
        .map((h) => `t=${now()},v1=${h}`),
      hex(64).map((h) => `v1=${h}`),
      fc.constantFrom(
        '',
        't=',
        'v1=',
        ',,,',
        '=',
        't==v1',
        `t=1e10,v1=${'0'.repeat(64)}`,
        `t=-1,v1=${'0'.repeat(64)}`,
        't=abc,v1=zz',
        'x'.repeat(8000),
        `t=${now()},v1=${'é'.repeat(32)}`,
      ),
      headerText(300),
    );
    // A valid notification with up to two fields replaced (or dropped): a hostile value then reaches as far as the others let it.
    const valid = fc.record({
      acquirerReference: fc
        .oneof(
          fc.uuid().map((u) => `ACQ-${u}`),
          fc.constant('ACQ-reused'),
        )
        .map((v) => JSON.stringify(v)),
      platformTrxId: fc.constantFrom(...pending, 'QR-unknown').map((v) => JSON.stringify(v)),
      amount: fc.constantFrom('50000', '50000.00', '50000', '49999'),
      status: fc.constantFrom('"success"', '"failed"'),
      rrn: fc.constant('"123456789012"'),
      issuer: fc.constant('"OVO"'),
      paidAt: fc
        .oneof(
          { weight: 3, arbitrary: fc.constant(null).map(() => new Date().toISOString()) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '2001-01-01T00:00:00Z',
              '2026-W47',
              '+275760-09-13T00:00:00Z',
              '2026-02-30T00:00:00Z',
              '2999-01-01T00:00:00Z',
              '2026-11-22T12:31:05.123456789Z',
            ),
          },
        )
        .map((v) => JSON.stringify(v)),
    });
    const withControl = fc
      .tuple(fc.string({ maxLength: 10 }), controlChar, fc.string({ maxLength: 10 }))
      .map(([a, c, b]) => JSON.stringify(a + c + b));
    const mutation = fc.oneof(
      { weight: 3, arbitrary: withControl },
      { weight: 2, arbitrary: hostileString.map((v) => JSON.stringify(v)) },
      { weight: 2, arbitrary: rawValue },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    const notification = fc
      .tuple(
        valid,
        fc.dictionary(
          fc.constantFrom(
            'acquirerReference',
            'platformTrxId',
            'amount',
            'status',
            'rrn',
            'issuer',
            'paidAt',
            'failureReason',
          ),
          mutation,
          { maxKeys: 2 },
        ),
      )
      .map(([base, changes]) => Object.entries({ ...base, ...changes }).filter(([, v]) => v !== undefined))
      .map((entries) => `{${entries.map(([k, v]) => `"${k}":${v}`).join(',')}}`);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: notification },
          { weight: 1, arbitrary: rawBody(['acquirerReference', 'paidAt']) },
        ),
        fc.nat(3).map((n) => n > 0),
        oddSignature,
        async (raw, signed, signature) => {
          const res = await request(gateway.internalServer)
            .post('/internal/acquirer/qris/notifications')
            .set('content-type', 'application/json')
            .set('x-acquirer-signature', signed ? acquirer.sign(raw) : signature)
            .send(raw);
          expect({ body: raw.slice(0, 120), signed, verdict: verdict(res.status) }).toEqual({
            body: raw.slice(0, 120),
            signed,
            verdict: 'ok',
          });
          expect(res.body).toMatchObject({ logId: expect.any(String), status: res.status < 400 });
          // Unsigned: refused, by the body parser (400, 413) or by the signature check (401).
          if (!signed) expect([400, 401, 413]).toContain(res.status);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
