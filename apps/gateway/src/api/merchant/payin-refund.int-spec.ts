import { randomUUID } from 'node:crypto';
import { parseLedgerCommand } from '@pay/contracts';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import type { Server } from 'node:http';
import {
  createMerchant,
  fundMerchant,
  insertPayin,
  insertSuccessfulPayin,
  ledgerFor,
  signedInMerchantUser,
} from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

/**
 * POST /api/v1/payin/refund and GET /api/v1/payin/refund/{refundId} (issue 44) against the real
 * Postgres. No ledger process runs here: a pump applies this suite's own refund commands from the
 * outbox (by merchant), as the ledger would. The acquirer's side is in the workers' sender spec
 * and e2e/refunds.e2e-spec.ts.
 */
describe('pay-in refunds, gateway side (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  const ours = new Set<number>();
  let pumping = true;
  let pump: Promise<void>;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        TRANSFER_DECISION_TIMEOUT_MS: '10000',
        QRIS_REFUND_WINDOW_DAYS: '7',
      }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    pump = (async () => {
      const applied = new Set<bigint>();
      while (pumping) {
        const rows = await prisma.outbox.findMany({
          where: { topic: 'ledger.commands.v1', key: { in: [...ours].map(String) }, id: { notIn: [...applied] } },
          orderBy: { id: 'asc' },
        });
        for (const row of rows) {
          applied.add(row.id);
          const command = parseLedgerCommand(row.payload);
          if (command.type === 'payin.refund') await ledgerFor(prisma).apply(command);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
  });
  afterAll(async () => {
    pumping = false;
    await pump;
    await gateway.close();
  });

  const refund = (token: string, body: object) =>
    request(http).post('/api/v1/payin/refund').set('token', token).send(body);
  const get = (token: string, refundId: string) =>
    request(http)
      .get(`/api/v1/payin/refund/${encodeURIComponent(refundId)}`)
      .set('token', token);
  const inquiry = (token: string, merchantTrxId: string) =>
    request(http).post('/api/v1/payin/qris/inquiry').set('token', token).send({ merchantTrxId });
  const balance = async (merchantId: number) => {
    const b = await prisma.balance.findUniqueOrThrow({ where: { merchantId } });
    return { available: b.available, pending: b.pending };
  };

  /** A merchant (its commands pumped) with one recorded, unsettled pay-in of 100,000 (fee 700). */
  async function merchantWithPayin() {
    const { merchant, token } = await createMerchant(prisma);
    ours.add(merchant.id);
    const payinId = await insertSuccessfulPayin(prisma, merchant.id, 100_000_00n, 700_00n);
    await ledgerFor(prisma).apply({
      type: 'payin.record',
      commandId: `payin.record:${payinId}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      payinId,
      amount: '10000000',
      fee: '70000',
    });
    const payin = await prisma.payin.findUniqueOrThrow({ where: { id: payinId } });
    return { merchant, token, payin };
  }

  it('refunds part of an unsettled pay-in: debited from pending, pending at the acquirer, and shown by refundId and in the inquiry', async () => {
    const { merchant, token, payin } = await merchantWithPayin();
    const res = await refund(token, {
      merchantTrxId: payin.merchantTrxId,
      refundId: 'RF-1',
      amount: 25000.5,
      reason: 'returned',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Refund accepted',
      data: {
        refundId: 'RF-1',
        merchantTrxId: payin.merchantTrxId,
        platformTrxId: payin.platformTrxId,
        amount: 25000.5,
        reason: 'returned',
        status: 'pending',
        refundNo: null,
        refundTime: null,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        completedAt: null,
      },
    });
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 99_300_00n - 25_000_50n });
    expect((await get(token, 'RF-1')).body).toMatchObject({ status: true, data: res.body.data });
    // The balance movements name the refunded pay-in.
    const movements = await request(http).get('/api/v1/balance/movements').set('token', token);
    expect(movements.body.data.items[0]).toMatchObject({
      type: 'payin.refunded',
      merchantTrxId: payin.merchantTrxId,
      platformTrxId: payin.platformTrxId,
      availableChange: 0,
      pendingChange: -25000.5,
      pendingAfter: 74299.5,
    });
    const inq = await inquiry(token, payin.merchantTrxId);
    expect(inq.body.data).toMatchObject({
      status: 'success',
      refundedAmount: 0,
      refundableAmount: 74999.5,
      refunds: [res.body.data],
    });
  });

  it('the same refundId and body again answers the same refund (one row, one command); another body is 409 REFUND_ID_CONFLICT', async () => {
    const { merchant, token, payin } = await merchantWithPayin();
    const body = { merchantTrxId: payin.merchantTrxId, refundId: 'RF-SAME', amount: 1000 };
    const first = await refund(token, body);
    const again = await refund(token, body);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    for (const other of [{ amount: 2000 }, { reason: 'other' }]) {
      const res = await refund(token, { ...body, ...other });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: false, code: 'REFUND_ID_CONFLICT', logId: expect.any(String) });
    }
    expect(await prisma.payinRefund.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 99_300_00n - 1000_00n });
  });

  it('refuses bad input, an unknown or unsuccessful pay-in, one outside the window and more than is left, changing nothing', async () => {
    const { merchant, token, payin } = await merchantWithPayin();
    const base = { merchantTrxId: payin.merchantTrxId, refundId: 'RF-BAD', amount: 1000 };
    for (const bad of [
      { amount: 0 },
      { amount: -5 },
      { amount: 1.234 },
      { refundId: '' },
      { refundId: 'a b' },
      { reason: 'x'.repeat(257) },
    ]) {
      const res = await refund(token, { ...base, ...bad });
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await refund(token, { ...base, merchantTrxId: 'NOPE' })).body).toMatchObject({
      code: 'TRANSACTION_NOT_FOUND',
    });
    const pending = await insertPayin(prisma, merchant.id, 50_000_00n, 0n, `PND-${randomUUID().slice(0, 8)}`);
    await prisma.payin.update({ where: { id: pending }, data: { status: 'pending', successAt: null } });
    const notPaid = await refund(token, {
      ...base,
      merchantTrxId: (await prisma.payin.findUniqueOrThrow({ where: { id: pending } })).merchantTrxId,
    });
    expect([notPaid.status, notPaid.body.code]).toEqual([409, 'PAYIN_NOT_REFUNDABLE']);
    const tooMuch = await refund(token, { ...base, amount: 100000.01 });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.message]).toEqual([
      422,
      'REFUND_AMOUNT_EXCEEDED',
      'The refund amount is more than what is left of the QRIS payment: at most 100000',
    ]);
    const old = await insertSuccessfulPayin(prisma, merchant.id, 10_000_00n, 0n);
    await prisma.$executeRaw`UPDATE payins SET success_at = now() - interval '8 days' WHERE id = ${old}::uuid`;
    const late = await refund(token, {
      ...base,
      merchantTrxId: (await prisma.payin.findUniqueOrThrow({ where: { id: old } })).merchantTrxId,
    });
    expect([late.status, late.body.code]).toEqual([422, 'REFUND_WINDOW_CLOSED']);
    expect(await prisma.payinRefund.count({ where: { merchantId: merchant.id } })).toBe(0);
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 99_300_00n });
    expect((await get(token, 'RF-BAD')).body).toMatchObject({ status: false, code: 'REFUND_NOT_FOUND' });
  });

  it('answers INSUFFICIENT_BALANCE when the balance does not cover the refund: nothing moves, and the refundId may be used again', async () => {
    const { merchant, token } = await createMerchant(prisma);
    ours.add(merchant.id);
    const [settled] = await fundMerchant(prisma, merchant.id, [50_000_00n]);
    const payin = await prisma.payin.findUniqueOrThrow({ where: { id: settled } });
    // Available is spent elsewhere (a payout), so a refund of the settled pay-in is not covered.
    await ledgerFor(prisma).apply({
      type: 'payout.debit',
      commandId: `d:${settled}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      payoutId: `manual-${randomUUID()}`,
      amount: '4000000',
      fee: '0',
    });
    const res = await refund(token, { merchantTrxId: payin.merchantTrxId, refundId: 'RF-NSF', amount: 20000 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: false,
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance for the refund: available 10000, required 20000',
    });
    expect(await balance(merchant.id)).toEqual({ available: 10_000_00n, pending: 0n });
    expect((await get(token, 'RF-NSF')).body.code).toBe('REFUND_NOT_FOUND');
    const retry = await refund(token, { merchantTrxId: payin.merchantTrxId, refundId: 'RF-NSF', amount: 10000 });
    expect(retry.status).toBe(200);
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 0n });
  });

  it('concurrent partial refunds of one pay-in never exceed it', async () => {
    const { merchant, token, payin } = await merchantWithPayin();
    await fundMerchant(prisma, merchant.id, [10_000_00n]); // covers the fee part of the last refund
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        refund(token, { merchantTrxId: payin.merchantTrxId, refundId: `RF-C${i}`, amount: 20000 }),
      ),
    );
    const statuses = results.map((r) => `${r.status} ${r.body.code ?? ''}`.trim()).sort();
    expect(statuses).toEqual([...Array(5).fill('200'), ...Array(7).fill('422 REFUND_AMOUNT_EXCEEDED')]);
    const live = await prisma.payinRefund.findMany({ where: { payinId: payin.id, status: { not: 'refused' } } });
    expect(live.reduce((s, r) => s + r.amount, 0n)).toBe(100_000_00n);
    // 99,300 of the pay-in's net from pending, its 700 fee from available.
    expect(await balance(merchant.id)).toEqual({ available: 10_000_00n - 700_00n, pending: 0n });
    expect((await inquiry(token, payin.merchantTrxId)).body.data).toMatchObject({ refundableAmount: 0 });
  });

  it("another merchant can neither refund a merchant's pay-in nor see its refunds", async () => {
    const { token, payin } = await merchantWithPayin();
    const other = await createMerchant(prisma);
    ours.add(other.merchant.id);
    expect((await refund(token, { merchantTrxId: payin.merchantTrxId, refundId: 'RF-T', amount: 1000 })).status).toBe(
      200,
    );
    const theirs = await refund(other.token, { merchantTrxId: payin.merchantTrxId, refundId: 'RF-T2', amount: 1000 });
    expect([theirs.status, theirs.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    const seen = await get(other.token, 'RF-T');
    expect([seen.status, seen.body.code]).toEqual([404, 'REFUND_NOT_FOUND']);
    expect((await get('not-a-token', 'RF-T')).status).toBe(401);
  });

  it('the dashboard refunds through the same rules: the pay-in page shows its refunds, the activity log the refund', async () => {
    const { merchant, payin } = await merchantWithPayin();
    const session = await signedInMerchantUser(prisma, http as Server, merchant.id);
    const post = (body: object) =>
      request(http)
        .post(`/dashboard/api/payins/${payin.merchantTrxId}/refunds`)
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .send(body);
    const res = await post({ amount: 12000, reason: 'damaged' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      refundId: expect.stringMatching(/^DASH-RF-[0-9A-F]{16}$/),
      amount: 12000,
      status: 'pending',
    });
    const tooMuch = await post({ amount: 90000 });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([422, 'REFUND_AMOUNT_EXCEEDED']);
    const page = await request(http).get(`/dashboard/api/payins/${payin.merchantTrxId}`).set('Cookie', session.cookie);
    expect(page.body.data).toMatchObject({
      refundedAmount: 0,
      refundableAmount: 88000,
      refunds: [{ refundId: res.body.data.refundId, amount: 12000, status: 'pending' }],
    });
    const [logged] = await prisma.$queryRaw<{ action: string; target: string }[]>`
      SELECT action, target FROM operator_audit_log WHERE merchant_id = ${merchant.id} AND action = 'payin.refund'`;
    expect(logged).toEqual({ action: 'payin.refund', target: `refund:${res.body.data.refundId}` });
    // Without the CSRF token: refused, nothing recorded.
    const forged = await request(http)
      .post(`/dashboard/api/payins/${payin.merchantTrxId}/refunds`)
      .set('Cookie', session.cookie)
      .send({ amount: 1000 });
    expect(forged.status).toBe(403);
    expect(await prisma.payinRefund.count({ where: { merchantId: merchant.id } })).toBe(1);
  });
});
