import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDocuments, OPENAPI_FILE, OPS_OPENAPI_FILE, serializeDocument } from './generate-document';

const operationsOf = (document: { paths: Record<string, object> }) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated document, field by field
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as any })),
  );

describe('the committed OpenAPI documents', () => {
  let documents: Awaited<ReturnType<typeof generateDocuments>>;
  beforeAll(async () => {
    documents = await generateDocuments();
  });

  it.each([
    [OPENAPI_FILE, 'merchant'],
    [OPS_OPENAPI_FILE, 'ops'],
  ] as const)('%s is what the code generates (no database needed to build it)', (file, which) => {
    const committed = readFileSync(join(__dirname, '..', '..', '..', '..', file), 'utf8');
    if (committed !== serializeDocument(documents[which])) {
      throw new Error(
        `${file} differs from what the controllers generate. Regenerate and commit it: npm run build && npm run openapi:export`,
      );
    }
  });

  it('declares every merchant operation with a token, a typed 200 and its error statuses', () => {
    const document = documents.merchant;
    const operations = operationsOf(document);
    expect(operations.map((o) => o.op.operationId).sort()).toEqual([
      'accountInquiry',
      'advanceSandboxClock',
      'disbursementInquiry',
      'exportRecon',
      'generateQris',
      'getBalance',
      'getDisbursementBatch',
      'getSandboxClock',
      'listBalanceMovements',
      'listBanks',
      'listDisbursements',
      'listEvents',
      'listPayins',
      'listWebhookDeliveries',
      'payinInquiry',
      'refundInquiry',
      'refundPayin',
      'resendWebhookDelivery',
      'resetSandboxClock',
      'sandboxPay',
      'sandboxSettle',
      'submitDisbursementBatch',
      'transfer',
    ]);
    for (const { op } of operations) {
      expect(op.security).toEqual([{ token: [] }]);
      const data = op.responses['200'].content['application/json'].schema.properties.data;
      expect(data.$ref ?? data.items.$ref).toMatch(/^#\/components\/schemas\//);
      for (const status of ['400', '401', '403', '413', '415', '429', '500', '503'])
        expect(op.responses[status]).toBeDefined();
    }
    expect(document.paths['/api/v1/disbursement/transfer'].post?.callbacks).toHaveProperty('disbursementFinal');
    expect(document.paths['/api/v1/payin/qris/generate'].post?.callbacks).toHaveProperty('payinFinal');
    expect(document.paths['/api/v1/payin/qris/generate'].post?.callbacks).toHaveProperty('payinRefunded');
    expect(Object.keys(document.paths).some((p) => p.startsWith('/ops') || p.startsWith('/internal'))).toBe(false);
  });

  it('is enough on its own: bounds on amounts and expiry, no spec sections cited, no request defaults, an intro that says how to authenticate, test and verify', () => {
    const document = documents.merchant;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document read field by field
    const schemas = document.components?.schemas as Record<string, any>;
    expect(schemas.GenerateQrisDto.properties.amount).toMatchObject({ minimum: 1000, maximum: 10_000_000 });
    expect(schemas.GenerateQrisDto.properties.expirySeconds).toMatchObject({
      type: 'integer',
      minimum: 60,
      maximum: 86_400,
    });
    expect(schemas.AccountInquiryDto.properties.amount).toMatchObject({ minimum: 10_000, maximum: 250_000_000 });
    expect(schemas.AccountInquiryDto.properties.accountNo.description).toContain('0000000404');
    expect(schemas.AccountInquiryDto.properties.bankCode.description).toContain('GET /api/v1/banks');
    for (const [name, schema] of Object.entries(schemas))
      for (const [field, property] of Object.entries(
        (schema.properties ?? {}) as Record<string, { default?: unknown }>,
      ))
        if (name.endsWith('Dto'))
          expect({ name, field, default: property.default }).toEqual({ name, field, default: undefined });
    for (const { op } of operationsOf(document)) expect(op.summary).not.toMatch(/spec \d/);
    const intro = document.info.description ?? '';
    for (const part of [
      '**Authentication**',
      '`token` header',
      '**Sandbox**',
      '**Callbacks**',
      'X-Callback-Signature',
      'reconFile',
    ])
      expect(intro).toContain(part);
    expect(document.servers?.map((s) => s.url)).toEqual(['/', 'http://localhost:3000']);
  });

  it('declares every ops operation with the admin token, a typed success and 400, 401 and 404; the notifications with their signatures', () => {
    const document = documents.ops;
    const operations = operationsOf(document);
    expect(
      Object.keys(document.paths).every(
        (p) => p.startsWith('/ops/') || p.startsWith('/internal/') || p.startsWith('/snap/'),
      ),
    ).toBe(true);
    expect(Object.keys(document.paths).some((p) => p.startsWith('/ops/queues'))).toBe(false);
    // 46: the adjustments (list, show, request, approve, reject) and the finance exports (request, show) since 39;
    // 52: the reconciliation (runs list, show and run, a CSV ingested, a break assigned, resolved);
    // 54: a merchant's payout approval settings (show, set); 55: a merchant user's role set.
    expect(operations).toHaveLength(55);
    for (const { path, op } of operations) {
      // The SNAP acquirer's notification answers in SNAP's envelope, not ours.
      if (path.startsWith('/snap/')) {
        expect(path).toBe('/snap/v1.0/qr/qr-mpm-notify');
        expect(op.security).toEqual([{ snapAcquirerSignature: [] }]);
        for (const status of ['200', '400', '401', '403', '404'])
          expect(op.responses[status].content['application/json'].schema.required).toEqual([
            'responseCode',
            'responseMessage',
          ]);
        continue;
      }
      expect(op.security).toEqual(path.startsWith('/internal/') ? [{ acquirerSignature: [] }] : [{ admin: [] }]);
      const success = op.responses['200'] ?? op.responses['201'];
      const data = success.content['application/json'].schema.properties.data;
      expect(data.$ref ?? data.items.$ref).toMatch(/^#\/components\/schemas\//);
      for (const status of ['400', '401', '500', '503']) expect(op.responses[status]).toBeDefined();
      if (path.startsWith('/ops/'))
        expect(op.responses['404'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
          'NOT_FOUND',
        ]);
    }
    expect(document.components?.securitySchemes).toMatchObject({
      admin: { type: 'http', scheme: 'bearer' },
      acquirerSignature: { type: 'apiKey', in: 'header', name: 'X-Acquirer-Signature' },
      snapAcquirerSignature: { type: 'apiKey', in: 'header', name: 'X-SIGNATURE' },
    });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });
});
