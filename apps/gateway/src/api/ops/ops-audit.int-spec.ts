import { loadConfig } from '@pay/platform';
import { createMerchant, signedInOperator } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_audit_0123456789abcdef0123456789abcdef0';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Row {
  operator_user_id: string | null;
  actor: string | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/**
 * Every change an operator makes is in the console's audit log, whichever way it was made: the
 * console (the operator), the ops API (actor `ops-api`) or the admin CLI (tools/admin's spec).
 * A settings change carries old and new of every field that moved; a secret never appears; a
 * refused change writes nothing.
 */
describe('the audit log of the ops API and the console: who, what, old and new (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let ops: App;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
        LOG_LEVEL: 'fatal',
        ADMIN_TOKEN,
      }),
    );
    ops = gateway.internalServer;
  });
  afterAll(() => gateway.close());

  const rowsOf = (target: string) =>
    gateway.prisma.$queryRaw<Row[]>`
      SELECT operator_user_id::text, actor, action, target, details FROM operator_audit_log WHERE target = ${target} ORDER BY id`;

  it('an ops API fee change: one row by ops-api with old and new; a refused one writes nothing', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const target = `merchant:${merchant.id}`;
    const refused = await request(ops).put(`/ops/merchants/${merchant.id}/fees`).set(auth).send({ payoutFee: -5 });
    expect(refused.status).toBe(400);
    expect(await rowsOf(target)).toEqual([]);

    const changed = await request(ops)
      .put(`/ops/merchants/${merchant.id}/fees`)
      .set(auth)
      .send({ payinFeePercent: 0.5, payoutFee: 3000 });
    expect(changed.status).toBe(200);
    expect(await rowsOf(target)).toEqual([
      {
        operator_user_id: null,
        actor: 'ops-api',
        action: 'merchant.fees',
        target,
        details: {
          payinFeePercent: 0.5,
          payoutFee: 3000,
          changes: {
            payinFeePctMilli: { from: merchant.payinFeePctMilli, to: 500 },
            payoutFeeFlat: { from: Number(merchant.payoutFeeFlat), to: 300000 },
          },
        },
      },
    ]);
  });

  it('every other ops API change is recorded too: rate limits, allowlist, callback URL, deactivate, tokens, the webhook secret (never its value)', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const id = merchant.id;
    const steps = [
      await request(ops).put(`/ops/merchants/${id}/rate-limits`).set(auth).send({ read: 5, write: 2, export: 1 }),
      await request(ops)
        .put(`/ops/merchants/${id}/allowlist`)
        .set(auth)
        .send({ entries: ['203.0.113.0/24'] }),
      await request(ops)
        .put(`/ops/merchants/${id}/payin-callback-url`)
        .set(auth)
        .send({ url: 'https://shop.example/cb' }),
      await request(ops).post(`/ops/merchants/${id}/deactivate`).set(auth),
      await request(ops).post(`/ops/merchants/${id}/tokens`).set(auth).send({ label: 'ci' }),
      await request(ops).get(`/ops/merchants/${id}/webhook-secret`).set(auth),
      await request(ops).post(`/ops/merchants/${id}/webhook-secret/rotate`).set(auth),
    ];
    for (const res of steps) expect(res.status).toBeLessThan(300);
    const rows = await rowsOf(`merchant:${id}`);
    expect(rows.map((r) => [r.actor, r.action])).toEqual([
      ['ops-api', 'merchant.rate-limits'],
      ['ops-api', 'merchant.allowlist'],
      ['ops-api', 'merchant.payin-callback-url'],
      ['ops-api', 'merchant.deactivate'],
      ['ops-api', 'token.create'],
      ['ops-api', 'webhook-secret.reveal'],
      ['ops-api', 'webhook-secret.rotate'],
    ]);
    expect(rows[0].details.changes).toEqual({
      rateLimitRead: { from: null, to: 5 },
      rateLimitWrite: { from: null, to: 2 },
      rateLimitExport: { from: null, to: 1 },
    });
    expect(rows[1].details.changes).toMatchObject({ ipAllowlist: { from: [], to: ['203.0.113.0/24'] } });
    expect(rows[2].details.changes).toEqual({ payinCallbackUrl: { from: null, to: 'https://shop.example/cb' } });
    expect(rows[3].details.changes).toEqual({ isActive: { from: true, to: false } });
    // Neither the new token nor the new secret is in the log.
    const issued = steps[4].body.data as { token: string };
    const secret = (await gateway.prisma.merchant.findUniqueOrThrow({ where: { id } })).webhookSecret;
    const logged = JSON.stringify(rows);
    expect(logged).not.toContain(issued.token);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain((steps[5].body.data as { secret: string }).secret);
    // The token's revocation names the token.
    const tokenId = (steps[4].body.data as { id: string }).id;
    expect((await request(ops).delete(`/ops/tokens/${tokenId}`).set(auth)).status).toBe(200);
    expect((await rowsOf(`token:${tokenId}`)).map((r) => [r.actor, r.action])).toEqual([['ops-api', 'token.revoke']]);
  });

  it("a console fee change is the operator's, with old and new; the console's audit log shows both ways with who acted", async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const operator = await signedInOperator(gateway.prisma, ops as never);
    const target = `merchant:${merchant.id}`;
    const res = await request(ops)
      .put(`/console/api/merchants/${merchant.id}/fees`)
      .set('cookie', operator.cookie)
      .set('x-csrf-token', operator.csrfToken)
      .send({ payinFeePercent: 1.1, payinFeeFixed: 150, payoutFee: 2500 });
    expect(res.status).toBe(200);
    await request(ops).post(`/ops/merchants/${merchant.id}/activate`).set(auth);
    const rows = await rowsOf(target);
    expect(rows[0]).toMatchObject({
      operator_user_id: String(operator.userId),
      actor: null,
      action: 'merchant.fees',
      details: { changes: { payinFeePctMilli: { from: merchant.payinFeePctMilli, to: 1100 } } },
    });
    // Activating an active merchant changed nothing, and says so.
    expect(rows[1]).toMatchObject({ actor: 'ops-api', action: 'merchant.activate', details: { changes: {} } });

    const log = await request(ops).get('/console/api/audit-log').query({ target }).set('cookie', operator.cookie);
    expect(
      log.body.data.entries.map((e: { operatorEmail: string; action: string }) => [e.operatorEmail, e.action]),
    ).toEqual([
      ['ops-api', 'merchant.activate'],
      [operator.email, 'merchant.fees'],
    ]);
  });
});
