import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { createMerchant, paidNotification } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';
import { AcquirerService } from '../../services/payin/acquirer.service';

/**
 * The pay-in inquiry by RRN (issue 45, part 3): the RRN on the payer's receipt finds the merchant's
 * own pay-in, the same answer as by merchantTrxId; a malformed RRN, or both keys, is a 400 naming
 * `rrn`; another merchant's RRN and an RRN nobody paid are 404.
 */
describe('POST /api/v1/payin/qris/inquiry by rrn (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let acquirer: AcquirerService;

  beforeAll(async () => {
    gateway = await startTestGateway();
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    acquirer = gateway.app.get(AcquirerService);
  });
  afterAll(() => gateway.close());

  const post = (path: string, token: string, body: object) =>
    request(http).post(`/api/v1/payin/qris/${path}`).set('token', token).send(body);
  /** A random 12-digit RRN, as the acquirer's are */
  const newRrn = () => String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
  /** A code of the merchant paid by the acquirer with this RRN */
  async function paidWith(token: string, rrn: string) {
    const merchantTrxId = `ORD-${randomUUID().slice(0, 8)}`;
    const generated = await post('generate', token, { merchantTrxId, amount: 50000 });
    expect(generated.status).toBe(200);
    const raw = JSON.stringify(paidNotification(generated.body.data.platformTrxId, { rrn }));
    const notified = await request(gateway.internalServer)
      .post('/internal/acquirer/qris/notifications')
      .set('content-type', 'application/json')
      .set('x-acquirer-signature', acquirer.sign(raw))
      .send(raw);
    expect(notified.status).toBe(200);
    return merchantTrxId;
  }

  it('finds the pay-in by its RRN with the same answer as by merchantTrxId', async () => {
    const { token } = await createMerchant(prisma);
    const rrn = newRrn();
    const merchantTrxId = await paidWith(token, rrn);
    await paidWith(token, newRrn()); // another pay-in of the merchant, another RRN

    const byRrn = await post('inquiry', token, { rrn });
    expect(byRrn.status).toBe(200);
    expect(byRrn.body).toMatchObject({
      status: true,
      message: 'Query success',
      data: { merchantTrxId, status: 'success', additionalInfo: { rrn } },
    });
    const byId = await post('inquiry', token, { merchantTrxId });
    expect({ ...byRrn.body, logId: null }).toEqual({ ...byId.body, logId: null });
  });

  it('answers the newest pay-in when the acquirer reused an RRN', async () => {
    const { token } = await createMerchant(prisma);
    const rrn = newRrn();
    await paidWith(token, rrn);
    const newer = await paidWith(token, rrn);
    const res = await post('inquiry', token, { rrn });
    expect(res.status).toBe(200);
    expect(res.body.data.merchantTrxId).toBe(newer);
  });

  it("another merchant's RRN and an RRN nobody paid are not found", async () => {
    const owner = await createMerchant(prisma);
    const other = await createMerchant(prisma);
    const rrn = newRrn();
    await paidWith(owner.token, rrn);
    for (const [token, asked] of [
      [other.token, rrn],
      [owner.token, newRrn()],
    ]) {
      const res = await post('inquiry', token, { rrn: asked });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, code: 'TRANSACTION_NOT_FOUND', logId: expect.any(String) });
    }
  });

  it.each([
    ['empty', { rrn: '' }, /^rrn: must be 1 to 32 letters or digits, as the receipt shows it$/],
    ['too long', { rrn: '1'.repeat(33) }, /^rrn: /],
    ['with a space', { rrn: '6123 4567 8901' }, /^rrn: /],
    ['with a symbol', { rrn: "61234567890'" }, /^rrn: /],
    ['a number, not a string', { rrn: 612345678901 }, /^rrn: /],
    ['both keys', { rrn: '612345678901', merchantTrxId: 'ORD-1' }, /^rrn: send merchantTrxId or rrn, not both$/],
  ])('refuses an rrn %s with a 400 naming it', async (_name, body, message) => {
    const { token } = await createMerchant(prisma);
    const res = await post('inquiry', token, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    expect(res.body.message).toMatch(message);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'rrn' })]));
  });

  it('still names merchantTrxId when neither key is sent', async () => {
    const { token } = await createMerchant(prisma);
    const res = await post('inquiry', token, {});
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^merchantTrxId: /);
  });
});
