import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, paidNotification } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';
import { AcquirerService } from '../../services/payin/acquirer.service';

const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef';
// Public IP literals: accepted without DNS; nothing is sent in this suite (the workers deliver).
const OWN_URL = 'https://93.184.216.34/callbacks/payin';
const DEFAULT_URL = 'https://93.184.216.35/callbacks/default';

describe('pay-in callbacks, gateway side: written with the status change (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let acquirer: AcquirerService;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal', ADMIN_TOKEN }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    acquirer = gateway.app.get(AcquirerService);
  });
  afterAll(() => gateway.close());

  const post = (path: string, token: string, body: object) =>
    request(http).post(`/api/v1/payin/qris/${path}`).set('token', token).send(body);
  const notify = (body: object) => {
    const raw = JSON.stringify(body);
    return request(gateway.internalServer)
      .post('/internal/acquirer/qris/notifications')
      .set('content-type', 'application/json')
      .set('x-acquirer-signature', acquirer.sign(raw))
      .send(raw);
  };
  const setDefault = (merchantId: number, url: string | null, auth = `Bearer ${ADMIN_TOKEN}`) =>
    request(gateway.internalServer)
      .put(`/ops/merchants/${merchantId}/payin-callback-url`)
      .set('authorization', auth)
      .send({ url });
  async function generate(token: string, over: object = {}) {
    const res = await post('generate', token, {
      merchantTrxId: `ORD-${randomUUID().slice(0, 8)}`,
      amount: 50000,
      ...over,
    });
    expect(res.status).toBe(200);
    return res.body.data as { merchantTrxId: string; platformTrxId: string };
  }
  const deliveriesOf = (merchantId: number) =>
    prisma.webhookDelivery.findMany({ where: { merchantId }, orderBy: { createdAt: 'asc' } });

  it.each([
    [
      'ftp',
      { notifyUrl: 'ftp://example.com/cb' },
      400,
      'VALIDATION_ERROR',
      'notifyUrl: must be an absolute http or https URL',
    ],
    [
      'over 2048 characters',
      { notifyUrl: `https://example.com/${'a'.repeat(2048)}` },
      400,
      'VALIDATION_ERROR',
      /^notifyUrl: /,
    ],
    [
      'a private address',
      { notifyUrl: 'http://10.0.0.5/cb' },
      400,
      'NOTIFY_URL_NOT_ALLOWED',
      'notifyUrl: 10.0.0.5 is a private or reserved address; callbacks go to public addresses only',
    ],
    [
      'an IPv4-mapped loopback',
      { notifyUrl: 'http://[::ffff:127.0.0.1]/cb' },
      400,
      'NOTIFY_URL_NOT_ALLOWED',
      /^notifyUrl: .* is a private or reserved address/,
    ],
  ])(
    'refuses QRIS generate with a notifyUrl that is %s, as the transfer refuses it, creating nothing',
    async (_label, over, status, code, message) => {
      const { merchant, token } = await createMerchant(prisma);
      const res = await post('generate', token, { merchantTrxId: 'ORD-X', amount: 50000, ...over });
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
      expect(await prisma.payin.count({ where: { merchantId: merchant.id } })).toBe(0);
    },
  );

  it('a paid pay-in with its own notifyUrl gets one payin.succeeded delivery; the same notification again adds none', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const qr = await generate(token, { notifyUrl: OWN_URL });
    const payin = await prisma.payin.findUniqueOrThrow({ where: { platformTrxId: qr.platformTrxId } });
    expect(payin.notifyUrl).toBe(OWN_URL);
    const body = paidNotification(qr.platformTrxId, {
      issuer: 'OVO',
      paidAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await notify(body)).status).toBe(200);
    const again = await notify(body);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Notification already processed');

    const [d, ...more] = await deliveriesOf(merchant.id);
    expect(more).toHaveLength(0);
    expect(d).toMatchObject({
      eventId: `payin.${payin.id}.success`,
      eventType: 'payin.succeeded',
      payinId: payin.id,
      disbursementId: null,
      url: OWN_URL,
      status: 'pending',
    });
    expect(JSON.parse(d.body)).toEqual({
      id: `payin.${payin.id}.success`,
      type: 'payin.succeeded',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // Its number in the merchant's event log (GET /api/v1/events)
      sequence: expect.any(Number),
      data: {
        idMerchant: merchant.id,
        merchantName: merchant.name,
        merchantTrxId: qr.merchantTrxId,
        platformTrxId: qr.platformTrxId,
        amount: 50000,
        fee: { amount: 500, percentage: 0.7, fixed: 150 },
        netAmount: 49500,
        status: 'success',
        success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        expiredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        issuer: 'OVO',
        paidAt: body.paidAt,
        additionalInfo: { rrn: '123456789012', nmid: merchant.nmid },
      },
    });
  });

  it('the merchant default URL (ops API) serves pay-ins without notifyUrl; a pay-in of its own wins; cleared, no callback', async () => {
    const { merchant, token } = await createMerchant(prisma);
    expect((await setDefault(merchant.id, DEFAULT_URL, 'Bearer wrong')).status).toBe(401);
    const bad = await setDefault(merchant.id, 'http://192.168.1.20/cb');
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'NOTIFY_URL_NOT_ALLOWED' });
    expect((await setDefault(merchant.id, 'not a url')).body.code).toBe('VALIDATION_ERROR');
    expect((await setDefault(999_999, DEFAULT_URL)).status).toBe(404);
    const set = await setDefault(merchant.id, DEFAULT_URL);
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ merchantId: merchant.id, payinCallbackUrl: DEFAULT_URL });

    const viaDefault = await generate(token);
    const own = await generate(token, { notifyUrl: OWN_URL });
    await post('sandbox/pay', token, { merchantTrxId: viaDefault.merchantTrxId }).expect(200);
    await post('sandbox/pay', token, { merchantTrxId: own.merchantTrxId, status: 'failed' }).expect(200);
    const cleared = await setDefault(merchant.id, null);
    expect(cleared.body.data.payinCallbackUrl).toBeNull();
    const none = await generate(token);
    await post('sandbox/pay', token, { merchantTrxId: none.merchantTrxId }).expect(200);

    const deliveries = await deliveriesOf(merchant.id);
    expect(deliveries.map((d) => [JSON.parse(d.body).data.merchantTrxId, d.eventType, d.url])).toEqual([
      [viaDefault.merchantTrxId, 'payin.succeeded', DEFAULT_URL],
      [own.merchantTrxId, 'payin.failed', OWN_URL],
    ]);
    expect(JSON.parse(deliveries[1].body).data).toMatchObject({
      status: 'failed',
      failureReason: 'Payer cancelled the payment',
      issuer: 'DANA',
      success_at: null,
    });
  });

  it('an expired code takes a payment made before its expiry (the acquirer is late): payin.succeeded after payin.expired; one made after is refused', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const late = await generate(token, { notifyUrl: OWN_URL });
    const after = await generate(token, { notifyUrl: OWN_URL });
    // As the expiry scan leaves them: expired a second ago.
    const expiresAt = new Date(Date.now() - 1000);
    await prisma.payin.updateMany({ where: { merchantId: merchant.id }, data: { status: 'expired', expiresAt } });

    const inTime = await notify(
      paidNotification(late.platformTrxId, { paidAt: new Date(expiresAt.getTime() - 5000).toISOString() }),
    );
    expect(inTime.status).toBe(200);
    const tooLate = await notify(paidNotification(after.platformTrxId, { paidAt: new Date().toISOString() }));
    expect({ status: tooLate.status, code: tooLate.body.code }).toEqual({ status: 422, code: 'QR_EXPIRED' });
    const failed = await notify(
      paidNotification(after.platformTrxId, {
        status: 'failed',
        paidAt: new Date(expiresAt.getTime() - 5000).toISOString(),
      }),
    );
    expect({ status: failed.status, code: failed.body.code }).toEqual({ status: 409, code: 'PAYIN_ALREADY_FINAL' });

    expect((await prisma.payin.findUniqueOrThrow({ where: { platformTrxId: late.platformTrxId } })).status).toBe(
      'success',
    );
    expect((await prisma.payin.findUniqueOrThrow({ where: { platformTrxId: after.platformTrxId } })).status).toBe(
      'expired',
    );
    expect((await deliveriesOf(merchant.id)).map((d) => d.eventType)).toEqual(['payin.succeeded']);
    const inquiry = await post('inquiry', token, { merchantTrxId: after.merchantTrxId });
    expect(inquiry.body.data.status).toBe('expired');
  });
});
