import { randomUUID } from 'node:crypto';
import { createPgPool, WebhookDeliveryRepository } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, fundMerchant } from '@pay/testing';
import type { Pool } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_settings_0123456789abcdef0123456789abcdef';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The admin CLI's merchant, token and webhook-secret commands over the ops API, judged by what the merchant API does next. */
describe('ops API: merchant settings, tokens and webhook secret (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;
  let ops: App;
  let pool: Pool;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
        ADMIN_TOKEN,
      }),
    );
    http = gateway.app.getHttpServer();
    ops = gateway.internalServer;
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
  });
  afterAll(async () => {
    await pool.end();
    await gateway.close();
  });

  const balance = (token: string) => request(http).get('/api/v1/payin/balance').set('token', token);
  const inquiry = (token: string) =>
    request(http)
      .post('/api/v1/disbursement/account-inquiry')
      .set('token', token)
      .send({
        merchantTrxId: `INV-${randomUUID().slice(0, 8)}`,
        accountNo: '1234567890',
        bankCode: 'BCA',
        amount: 100000,
      });

  it('needs the admin token', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    expect((await request(ops).get(`/ops/merchants/${merchant.id}`)).status).toBe(401);
    expect(
      (await request(ops).post(`/ops/merchants/${merchant.id}/deactivate`).set('authorization', 'Bearer wrong')).status,
    ).toBe(401);
    expect((await gateway.prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).isActive).toBe(true);
  });

  it('shows and lists merchants as the CLI prints them; an unknown merchant is a 404 envelope', async () => {
    const { merchant } = await createMerchant(gateway.prisma, { name: 'Toko Ops Show' });
    const shown = await request(ops).get(`/ops/merchants/${merchant.id}`).set(auth);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      id: merchant.id,
      name: 'Toko Ops Show',
      active: true,
      payoutFee: '2500',
      ipAllowlist: { enabled: false, entries: [] },
      rateLimits: { readPerSecond: 'default' },
    });
    const listed = await request(ops).get('/ops/merchants').set(auth);
    expect(listed.body.data).toEqual(expect.arrayContaining([shown.body.data]));
    for (const [id, message] of [
      ['987654', 'merchant 987654 not found'],
      ['99999999999', 'merchant 99999999999 not found'],
      ['abc', 'merchant not found'],
    ]) {
      const missing = await request(ops).get(`/ops/merchants/${id}`).set(auth);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ logId: expect.any(String), status: false, code: 'NOT_FOUND', message });
    }
    expect((await request(ops).put('/ops/merchants/987654/fees').set(auth).send({ payoutFee: 1 })).status).toBe(404);
    expect((await request(ops).post('/ops/merchants/987654/tokens').set(auth).send({})).status).toBe(404);
  });

  it("deactivate refuses the merchant's token on the merchant API; activate lets it in again", async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const off = await request(ops).post(`/ops/merchants/${merchant.id}/deactivate`).set(auth);
    expect(off.body).toMatchObject({
      status: true,
      message: 'Merchant deactivated',
      data: { id: merchant.id, active: false },
    });
    expect((await balance(token)).body).toMatchObject({
      status: false,
      code: 'MERCHANT_NOT_ACTIVE',
      message: 'Merchant not active',
    });
    expect((await request(ops).post(`/ops/merchants/${merchant.id}/activate`).set(auth)).body.data.active).toBe(true);
    expect((await balance(token)).status).toBe(200);
  });

  it('new fees show in the account inquiry and the QRIS code; bad fees are refused naming the field, changing nothing', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_000_00n]);
    const set = await request(ops)
      .put(`/ops/merchants/${merchant.id}/fees`)
      .set(auth)
      .send({ payoutFee: 3000.5, payinFeePercent: 1.25, payinFeeFixed: 100 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ payinFee: { percentage: 1.25, fixed: '100' }, payoutFee: '3000.5' });
    expect((await inquiry(token)).body.data).toMatchObject({
      fee: { amount: 3000.5, percentage: 0 },
      totalAmount: 103000.5,
    });
    const code = await request(http)
      .post('/api/v1/payin/qris/generate')
      .set('token', token)
      .send({ merchantTrxId: `QR-${randomUUID().slice(0, 8)}`, amount: 100000 });
    expect(code.body.data.fee).toEqual({ amount: 1350, percentage: 1.25, fixed: 100 });

    const refusals: [object, string, string][] = [
      [
        { payoutFee: -5 },
        'payoutFee',
        'payoutFee must be an amount in Rupiah with at most two decimals, e.g. 2500 or 150.50',
      ],
      [
        { payoutFee: 1.234 },
        'payoutFee',
        'payoutFee must be an amount in Rupiah with at most two decimals, e.g. 2500 or 150.50',
      ],
      [
        { payinFeePercent: 101 },
        'payinFeePercent',
        'payinFeePercent must be a percentage between 0 and 100 with at most three decimals, e.g. 0.7',
      ],
      [{ payoutFee: '2500' }, 'payoutFee', 'payoutFee must be a number conforming to the specified constraints'],
      [{ payoutFee: null }, 'payoutFee', 'payoutFee must be a number conforming to the specified constraints'],
      [{}, 'payinFeePercent', 'give at least one of payinFeePercent, payinFeeFixed, payoutFee'],
      [{ payoutFee: 1, fee: 2 }, 'fee', 'property fee should not exist'],
    ];
    for (const [body, field, message] of refusals) {
      const res = await request(ops).put(`/ops/merchants/${merchant.id}/fees`).set(auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: false,
        code: 'VALIDATION_ERROR',
        // The field named once: "payoutFee: must be ..."; its entry in errors keeps the whole sentence.
        message: `${field}: ${message.startsWith(`${field} `) ? message.slice(field.length + 1) : message}`,
        errors: [{ field, message }],
      });
    }
    expect(await gateway.prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).toMatchObject({
      payoutFeeFlat: 300050n,
      payinFeePctMilli: 1250,
      payinFeeFixed: 10000n,
    });
  });

  it('sets the QRIS identity and the settlement schedule with the CLI rules', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    // NMIDs are unique across merchants, and other suites share this database: one of its own.
    const nmid = `ID10200${String(Date.now()).slice(-8)}`;
    const qris = await request(ops)
      .put(`/ops/merchants/${merchant.id}/qris`)
      .set(auth)
      .send({ nmid, mcc: '5812', merchantCriteria: 'UKE', city: 'Bandung', postalCode: '40115' });
    expect(qris.body.data.qris).toEqual({ nmid, mcc: '5812', criteria: 'UKE', city: 'Bandung', postalCode: '40115' });
    const badNmid = await request(ops).put(`/ops/merchants/${merchant.id}/qris`).set(auth).send({ nmid: 'XX1' });
    expect(badNmid.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'nmid: must be ID followed by 10 to 13 digits',
    });
    expect(
      (await request(ops).put(`/ops/merchants/${merchant.id}/qris`).set(auth).send({ merchantCriteria: 'BIG' })).body
        .message,
    ).toBe('merchantCriteria: must be UMI, UKE, UME, UBE or URE');

    const schedule = await request(ops)
      .put(`/ops/merchants/${merchant.id}/settlement-schedule`)
      .set(auth)
      .send({ delayDays: 2, hour: 9 });
    expect(schedule.body.data.settlement).toBe('T+2 at 09:00 Asia/Jakarta');
    expect(
      (await request(ops).put(`/ops/merchants/${merchant.id}/settlement-schedule`).set(auth).send({ hour: 24 })).body,
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'hour', message: 'hour must be a whole hour from 0 to 23' }],
    });
    expect(
      (await request(ops).put(`/ops/merchants/${merchant.id}/settlement-schedule`).set(auth).send({ delayDays: 'two' }))
        .body.message,
    ).toBe('delayDays: must be an integer number');
    expect(await gateway.prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).toMatchObject({
      nmid,
      merchantCriteria: 'UKE',
      settlementDelayDays: 2,
      settlementHour: 9,
    });
  });

  it('the allowlist refuses an unlisted caller once enabled, permits a listed one, and clearing lets everyone in', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const set = await request(ops)
      .put(`/ops/merchants/${merchant.id}/allowlist`)
      .set(auth)
      .send({ entries: ['203.0.113.0/24', '2001:db8::/32'], enabled: true });
    expect(set.body.data).toEqual({
      merchantId: merchant.id,
      enabled: true,
      entries: ['203.0.113.0/24', '2001:db8:0:0:0:0:0:0/32'],
    });
    expect((await balance(token)).body).toMatchObject({ status: false, code: 'IP_NOT_ALLOWED' });

    await request(ops)
      .put(`/ops/merchants/${merchant.id}/allowlist`)
      .set(auth)
      .send({ entries: ['127.0.0.1', '::1'] })
      .expect(200);
    expect((await request(ops).get(`/ops/merchants/${merchant.id}/allowlist`).set(auth)).body.data).toMatchObject({
      enabled: true,
      entries: ['127.0.0.1', '0:0:0:0:0:0:0:1'],
    });
    expect((await balance(token)).status).toBe(200);

    const bad = await request(ops)
      .put(`/ops/merchants/${merchant.id}/allowlist`)
      .set(auth)
      .send({ entries: ['10.0.0.0/33'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'entries', message: expect.stringMatching(/^entries: "10\.0\.0\.0\/33" /) },
    ]);
    expect(
      (await request(ops).put(`/ops/merchants/${merchant.id}/allowlist`).set(auth).send({ entries: '127.0.0.1' })).body
        .message,
    ).toBe('entries: must be an array');

    await request(ops)
      .put(`/ops/merchants/${merchant.id}/allowlist`)
      .set(auth)
      .send({ entries: ['203.0.113.0/24'] })
      .expect(200);
    expect((await balance(token)).status).toBe(403);
    expect(
      (await request(ops).post(`/ops/merchants/${merchant.id}/allowlist/disable`).set(auth)).body.data.enabled,
    ).toBe(false);
    expect((await balance(token)).status).toBe(200);
    expect(
      (await request(ops).post(`/ops/merchants/${merchant.id}/allowlist/enable`).set(auth)).body.data.enabled,
    ).toBe(true);
    expect((await balance(token)).status).toBe(403);
    const cleared = await request(ops).delete(`/ops/merchants/${merchant.id}/allowlist`).set(auth);
    expect(cleared.body.data).toEqual({ merchantId: merchant.id, enabled: false, entries: [] });
    expect((await balance(token)).status).toBe(200);
  });

  it('issues a token once (only its hash stored), lists it without the secret, and a revoked token is refused', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const issued = await request(ops).post(`/ops/merchants/${merchant.id}/tokens`).set(auth).send({ label: 'qa' });
    expect(issued.status).toBe(201);
    const { id, token } = issued.body.data;
    expect(token).toMatch(/^mtk_/);
    expect((await balance(token)).status).toBe(200);
    const listed = await request(ops).get(`/ops/merchants/${merchant.id}/tokens`).set(auth);
    expect(listed.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, label: 'qa', revokedAt: null })]),
    );
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const revoked = await request(ops).delete(`/ops/tokens/${id}`).set(auth);
    expect(revoked.body).toMatchObject({
      status: true,
      data: { id, merchantId: merchant.id, revokedAt: expect.any(String) },
    });
    expect((await balance(token)).body).toMatchObject({ status: false, code: 'TOKEN_NOT_VALID' });
    // Revoking twice answers the first revocation.
    expect((await request(ops).delete(`/ops/tokens/${id}`).set(auth)).body.data.revokedAt).toBe(
      revoked.body.data.revokedAt,
    );
    for (const unknown of [randomUUID(), 'nope']) {
      expect((await request(ops).delete(`/ops/tokens/${unknown}`).set(auth)).body).toMatchObject({
        status: false,
        code: 'NOT_FOUND',
        message: `token ${unknown} not found`,
      });
    }
    expect(
      (await request(ops).post(`/ops/merchants/${merchant.id}/tokens`).set(auth).send({ label: 5 })).body.message,
    ).toBe('label: must be a string');
  });

  it('a rotated webhook secret signs, with the old one beside it during the grace period only', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const webhooks = new WebhookDeliveryRepository(pool);
    const old = (await request(ops).get(`/ops/merchants/${merchant.id}/webhook-secret`).set(auth)).body.data
      .secret as string;
    const rotated = await request(ops).post(`/ops/merchants/${merchant.id}/webhook-secret/rotate`).set(auth).send({});
    expect(rotated.body.data).toMatchObject({
      merchantId: merchant.id,
      secret: expect.stringMatching(/^whsec_/),
      previousExpiresAt: expect.any(String),
    });
    const fresh = rotated.body.data.secret as string;
    expect(await webhooks.signingSecrets(merchant.id, new Date())).toEqual([fresh, old]);
    expect((await request(ops).get(`/ops/merchants/${merchant.id}/webhook-secret`).set(auth)).body.data).toMatchObject({
      secret: fresh,
      previousExpiresAt: rotated.body.data.previousExpiresAt,
    });

    const now = await request(ops)
      .post(`/ops/merchants/${merchant.id}/webhook-secret/rotate`)
      .set(auth)
      .send({ graceHours: 0 });
    expect(await webhooks.signingSecrets(merchant.id, new Date())).toEqual([now.body.data.secret]);
    expect(
      (
        await request(ops)
          .post(`/ops/merchants/${merchant.id}/webhook-secret/rotate`)
          .set(auth)
          .send({ graceHours: 721 })
      ).body,
    ).toMatchObject({ code: 'VALIDATION_ERROR', message: 'graceHours: must be between 0 and 720' });
    expect(await webhooks.signingSecrets(merchant.id, new Date())).toEqual([now.body.data.secret]);
  });

  it('a transfer without accountName is told it is required; too long and wrong type get their own message', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_000_00n]);
    const { fee: _fee, totalAmount: _total, accountName, ...fields } = (await inquiry(token)).body.data;
    const transfer = (body: object) =>
      request(http)
        .post('/api/v1/disbursement/transfer')
        .set('token', token)
        .send({ ...fields, notifyUrl: 'https://merchant.example/cb', ...body });
    const missing = await transfer({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'accountName: is required',
      errors: [{ field: 'accountName', message: 'accountName is required' }],
    });
    expect((await transfer({ accountName: 'x'.repeat(101) })).body.message).toBe(
      'accountName: must be shorter than or equal to 100 characters',
    );
    expect((await transfer({ accountName: 42 })).body.message).toBe('accountName: must be a string');
    expect((await transfer({ accountName: '' })).body.message).toBe('accountName: should not be empty');
    const many = await transfer({ accountName: undefined, platformTrxId: '', notifyUrl: 'ftp://x' });
    expect(many.body.errors).toEqual([
      { field: 'accountName', message: 'accountName is required' },
      { field: 'platformTrxId', message: 'platformTrxId should not be empty' },
      { field: 'notifyUrl', message: 'notifyUrl must be an absolute http or https URL' },
    ]);
    expect(typeof accountName).toBe('string');
    expect(await gateway.prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(0);
  });
});
