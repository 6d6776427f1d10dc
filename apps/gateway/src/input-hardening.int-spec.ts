import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, paidNotification } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp } from './gateway.app';
import { gatewayConfigSchema } from './gateway.config';
import { AcquirerService } from './services/payin/acquirer.service';

/**
 * Inputs an unauthenticated or careless caller can send that used to answer 500, change the
 * settlement hold or bypass the README's promises (security issue #14, items 2, 5 and 10).
 */
describe('input hardening of the gateway (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let acquirer: AcquirerService;
  let token: string;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal' }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    acquirer = gateway.app.get(AcquirerService);
    ({ token } = await createMerchant(prisma));
  });
  afterAll(() => gateway.close());

  const notify = (raw: string, signature = acquirer.sign(raw)) =>
    request(gateway.internalServer)
      .post('/internal/acquirer/qris/notifications')
      .set('content-type', 'application/json')
      .set('x-acquirer-signature', signature)
      .send(raw);
  async function generate(): Promise<{ platformTrxId: string }> {
    const res = await request(http)
      .post('/api/v1/payin/qris/generate')
      .set('token', token)
      .send({ merchantTrxId: `ORD-${randomUUID().slice(0, 8)}`, amount: 50000 });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  const paid = paidNotification;
  const recorded = (body: { acquirerReference: string }) =>
    prisma.acquirerNotification.findMany({ where: { acquirerReference: body.acquirerReference } });

  describe('paidAt (item 2)', () => {
    it('refuses a paidAt before the code was created, or beyond now plus the clock skew, and records the refusal', async () => {
      for (const paidAt of ['2001-01-01T00:00:00Z', new Date(Date.now() + 6 * 60_000).toISOString(), '2026-W47']) {
        const { platformTrxId } = await generate();
        const body = paid(platformTrxId, { paidAt });
        const res = await notify(JSON.stringify(body));
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ status: false, code: 'PAID_AT_INVALID', logId: expect.any(String) });
        expect(await recorded(body)).toEqual([
          expect.objectContaining({ outcome: 'refused', reason: 'PAID_AT_INVALID' }),
        ]);
        expect(await prisma.payin.findUniqueOrThrow({ where: { platformTrxId } })).toMatchObject({
          status: 'pending',
          successAt: null,
        });
      }
    });

    it('refuses an impossible calendar date as a validation error', async () => {
      const { platformTrxId } = await generate();
      const res = await notify(JSON.stringify(paid(platformTrxId, { paidAt: '2026-02-30T10:00:00Z' })));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^paidAt: /) });
    });

    it('counts the settlement hold from when the payment was recorded, never from an earlier paidAt', async () => {
      const { platformTrxId } = await generate();
      // A late notification for a payment made in time (2 s after the code was created).
      const created = (await prisma.payin.findUniqueOrThrow({ where: { platformTrxId } })).createdAt;
      await new Promise((r) => setTimeout(r, 1500));
      const before = Date.now();
      const res = await notify(JSON.stringify(paid(platformTrxId, { paidAt: created.toISOString() })));
      expect(res.status).toBe(200);
      const row = await prisma.payin.findUniqueOrThrow({ where: { platformTrxId } });
      expect(row.successAt?.getTime()).toBeGreaterThanOrEqual(before);
    });
  });

  describe('inputs that used to answer 500 (item 5)', () => {
    it('a signature whose v1 is not hex, has the wrong length or lacks t= answers 401 in the envelope', async () => {
      const raw = JSON.stringify(paid('QR-none'));
      const t = Math.floor(Date.now() / 1000);
      for (const signature of [
        `t=${t},v1=${'z'.repeat(64)}`,
        `t=${t},v1=${'0'.repeat(63)}g`,
        `t=${t},v1=${'ab'.repeat(64)}`,
        `v1=${'0'.repeat(64)}`,
        `t=${t},v1=${'é'.repeat(32)}`,
        'x'.repeat(8000),
      ]) {
        const res = await notify(raw, signature);
        expect({ signature: signature.slice(0, 20), status: res.status }).toEqual({
          signature: signature.slice(0, 20),
          status: 401,
        });
        expect(res.body).toMatchObject({ status: false, code: 'SIGNATURE_INVALID', logId: expect.any(String) });
      }
    });

    it('a JSON body nested deeper than 32 levels answers 400 before validation, on every endpoint', async () => {
      const deep = `{"a":${'['.repeat(6000)}${']'.repeat(6000)}}`;
      const merchant = await request(http)
        .post('/api/v1/payin/qris/generate')
        .set('token', token)
        .set('content-type', 'application/json')
        .send(deep);
      expect(merchant.status).toBe(400);
      expect(merchant.body).toMatchObject({
        status: false,
        code: 'VALIDATION_ERROR',
        message: 'Request body is nested too deeply (at most 32 levels)',
      });
      const notification = await notify(deep);
      expect(notification.status).toBe(400);
      expect(notification.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Request body is nested too deeply (at most 32 levels)',
      });
      // Brackets inside strings are text, not nesting.
      const inString = await request(http)
        .post('/api/v1/payin/qris/generate')
        .set('token', token)
        .send({ merchantTrxId: '['.repeat(40), amount: 50000 });
      expect(inString.body.message).not.toMatch(/nested/);
    });

    it('NUL and other control characters in any string field answer 400 naming the field', async () => {
      const { platformTrxId } = await generate();
      for (const [field, value] of [
        ['issuer', 'O\u0000VO'],
        ['rrn', '12\u00003'],
        ['acquirerReference', 'ACQ\u001b[31m'],
      ] as const) {
        const body = paid(platformTrxId, { [field]: value });
        const res = await notify(JSON.stringify(body));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: `${field}: must not contain control characters`,
          errors: [{ field, message: 'must not contain control characters' }],
        });
      }
      const sandbox = await request(http)
        .post('/api/v1/payin/qris/sandbox/pay')
        .set('token', token)
        .send({ merchantTrxId: 'ORD-1', issuer: 'DA\u0000NA' });
      expect(sandbox.status).toBe(400);
      expect(sandbox.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'issuer: must not contain control characters',
      });
      const transfer = await request(http)
        .post('/api/v1/disbursement/account-inquiry')
        .set('token', token)
        .send({
          merchantTrxId: 'DSB-1',
          accountNo: '1234567890',
          bankCode: 'BCA',
          amount: 50000,
          nested: { deeper: ['\u0000'] },
        });
      expect(transfer.status).toBe(400);
      expect(transfer.body.errors).toEqual(
        expect.arrayContaining([{ field: 'nested.deeper.0', message: 'must not contain control characters' }]),
      );
      expect(await prisma.payin.findUniqueOrThrow({ where: { platformTrxId } })).toMatchObject({ status: 'pending' });
    });

    it('an acquirerReference already used on another pay-in answers 409 and the notification is recorded', async () => {
      const first = await generate();
      const second = await generate();
      const body = paid(first.platformTrxId);
      expect((await notify(JSON.stringify(body))).status).toBe(200);
      const reused = { ...paid(second.platformTrxId), acquirerReference: body.acquirerReference };
      const res = await notify(JSON.stringify(reused));
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: false, code: 'ACQUIRER_REFERENCE_CONFLICT', logId: expect.any(String) });
      const rows = await recorded(body);
      expect(rows.map((r) => [r.platformTrxId, r.outcome, r.reason])).toEqual(
        expect.arrayContaining([
          [first.platformTrxId, 'accepted', null],
          [second.platformTrxId, 'refused', 'ACQUIRER_REFERENCE_CONFLICT'],
        ]),
      );
      expect(await prisma.payin.findUniqueOrThrow({ where: { platformTrxId: second.platformTrxId } })).toMatchObject({
        status: 'pending',
      });
    });
  });

  describe('methods (item 10)', () => {
    it('a known path with another method answers 405 with Allow; an unknown path stays 404', async () => {
      const wrong = await request(http).get('/api/v1/payin/qris/generate').set('token', token);
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toBe('POST');
      expect(wrong.body).toMatchObject({
        status: false,
        code: 'METHOD_NOT_ALLOWED',
        message: 'Method GET is not allowed on this path; use POST',
        logId: expect.any(String),
      });
      const put = await request(http).put('/api/v1/payin/balance?x=1');
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('GET, HEAD');
      const unknown = await request(http).delete('/api/v1/nothing-here');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
      expect(unknown.headers.allow).toBeUndefined();
    });

    it('HEAD answers like GET without a body; OPTIONS on a known path lists the methods', async () => {
      const head = await request(http).head('/api/v1/payin/balance').set('token', token);
      expect(head.status).toBe(200);
      const options = await request(http).options('/api/v1/payin/qris/generate');
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe('POST');
      const unknown = await request(http).options('/api/v1/nothing-here');
      expect(unknown.status).toBe(404);
    });
  });
});
