import { randomUUID } from 'node:crypto';
import { API_SCOPES, type ApiScope } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { SCOPE_EXTENSION } from '../kernel/auth/merchant/requires-scope';
import { generateDocuments } from './generate-document';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../testing/test-gateway';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The document's path with each {param} filled in */
  url: string;
  operationId: string;
  scope: ApiScope;
}

/** Every operation of the merchant OpenAPI document, as the gateway's controllers declare it (not a hand list). */
async function merchantOperations(): Promise<Operation[]> {
  const { merchant } = await generateDocuments();
  return Object.entries(merchant.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId: string; [SCOPE_EXTENSION]?: ApiScope }>).map(
      ([method, op]) => ({
        method: method as Operation['method'],
        url: path.replace(/\{[^}]+\}/g, 'X-1'),
        operationId: op.operationId,
        scope: op[SCOPE_EXTENSION] as ApiScope,
      }),
    ),
  );
}

describe('scoped API tokens: every merchant route of the OpenAPI document (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let operations: Operation[];
  let merchantId: number;
  let admin: Awaited<ReturnType<typeof createMerchant>>['admin'];

  beforeAll(async () => {
    operations = await merchantOperations();
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal' }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    const created = await createMerchant(prisma);
    merchantId = created.merchant.id;
    admin = created.admin;
    // Every route is called here: the merchant's own limits stay out of the way.
    await prisma.merchant.update({
      where: { id: merchantId },
      data: { rateLimitRead: 10_000, rateLimitWrite: 10_000, rateLimitExport: 10_000 },
    });
  });
  afterAll(() => gateway.close());

  const call = (op: Operation, token: string) =>
    request(http)
      [op.method](op.url)
      .set('token', token)
      .send(op.method === 'get' ? undefined : {});

  it('finds the routes and a scope declared on each', () => {
    expect(operations.length).toBeGreaterThanOrEqual(17);
    for (const op of operations)
      expect({ op: op.operationId, scope: API_SCOPES.includes(op.scope) }).toEqual({
        op: op.operationId,
        scope: true,
      });
    // The routes others added: batch payouts and refunds.
    const scopeOf = (id: string) => operations.find((o) => o.operationId === id)?.scope;
    expect(scopeOf('submitDisbursementBatch')).toBe('payouts:write');
    expect(scopeOf('getDisbursementBatch')).toBe('payouts:read');
    expect(scopeOf('refundPayin')).toBe('refunds:write');
    expect(scopeOf('refundInquiry')).toBe('payins:read');
  });

  it("answers 403 SCOPE_REQUIRED naming the scope to a token with every scope but the route's", async () => {
    const without = new Map<ApiScope, string>();
    for (const scope of API_SCOPES)
      without.set(
        scope,
        (
          await admin.issueToken(
            merchantId,
            `all but ${scope}`,
            API_SCOPES.filter((s) => s !== scope),
          )
        ).token,
      );
    for (const op of operations) {
      const res = await call(op, without.get(op.scope) as string);
      expect({ op: op.operationId, status: res.status, body: res.body }).toEqual({
        op: op.operationId,
        status: 403,
        body: {
          logId: expect.any(String),
          status: false,
          code: 'SCOPE_REQUIRED',
          message: `This token does not have the scope ${op.scope}`,
        },
      });
    }
  });

  it("lets a token with only the route's scope past the scope check", async () => {
    const only = new Map<ApiScope, string>();
    for (const scope of API_SCOPES)
      only.set(scope, (await admin.issueToken(merchantId, `only ${scope}`, [scope])).token);
    for (const op of operations) {
      const res = await call(op, only.get(op.scope) as string);
      // Past the guard: the route's own answer (a 400 for the empty body, a 404 for the made-up id, a 200), never a 403.
      expect({ op: op.operationId, status: res.status }).not.toEqual({ op: op.operationId, status: 403 });
      expect(res.body.code).not.toBe('SCOPE_REQUIRED');
    }
  });

  it('a refused call changes nothing; the same call with the scope does it', async () => {
    const reader = await admin.issueToken(merchantId, 'reader', ['balance:read', 'payins:read']);
    const writer = await admin.issueToken(merchantId, 'writer', ['payins:write']);
    const merchantTrxId = `SCOPE-${randomUUID().slice(0, 8)}`;
    const generate = (token: string) =>
      request(http).post('/api/v1/payin/qris/generate').set('token', token).send({ merchantTrxId, amount: 50000 });
    const refused = await generate(reader.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'SCOPE_REQUIRED',
      message: 'This token does not have the scope payins:write',
    });
    expect(await prisma.payin.count({ where: { merchantId, merchantTrxId } })).toBe(0);
    expect((await generate(writer.token)).status).toBe(200);
    expect(await prisma.payin.count({ where: { merchantId, merchantTrxId } })).toBe(1);
    // The writer cannot read it back; the reader can.
    const inquire = (token: string) =>
      request(http).post('/api/v1/payin/qris/inquiry').set('token', token).send({ merchantTrxId });
    expect((await inquire(writer.token)).body.code).toBe('SCOPE_REQUIRED');
    expect((await inquire(reader.token)).status).toBe(200);
  });

  it('keeps full access for a token issued without scopes (as every token issued before them)', async () => {
    const full = await admin.issueToken(merchantId, 'full');
    expect(full.scopes).toEqual([...API_SCOPES]);
    const row = await prisma.apiToken.findUniqueOrThrow({ where: { id: full.id } });
    expect(row.scopes).toEqual([...API_SCOPES]);
    for (const op of operations) expect((await call(op, full.token)).body.code).not.toBe('SCOPE_REQUIRED');
  });

  it('refuses to issue a token with an unknown scope or none', async () => {
    await expect(admin.issueToken(merchantId, 'bad', ['payins:read', 'money:print'])).rejects.toThrow(
      /unknown scope money:print/,
    );
    await expect(admin.issueToken(merchantId, 'none', [])).rejects.toThrow(/at least one scope/);
  });
});
