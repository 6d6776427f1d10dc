import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '@pay/platform';
import { createMerchant, fundMerchant, insertSuccessfulPayin } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef';
/** The token being rotated out: still accepted until ADMIN_TOKEN_PREVIOUS is cleared. */
const OLD_ADMIN_TOKEN = 'adm_old_0123456789abcdef0123456789abcdef';

describe('gateway in production mode: notifyUrl safety, ops API and Bull Board (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;
  /** The internal port, where /ops is served */
  let ops: App;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        NODE_ENV: 'production',
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
        ADMIN_TOKEN,
        ADMIN_TOKEN_PREVIOUS: OLD_ADMIN_TOKEN,
        ACQUIRER_SECRET: 'test-acquirer-secret-0123456789abcdef',
        S3_ACCESS_KEY: 'ops-test-recon',
        S3_SECRET_KEY: 'ops-test-recon-secret-0123456789abcdef',
      }),
    );
    http = gateway.app.getHttpServer();
    ops = gateway.internalServer;
  });
  afterAll(() => gateway.close());

  it.each([
    ['http://10.0.0.5/callback', '10.0.0.5 is a private or reserved address'],
    ['http://192.168.1.20:8080/cb', '192.168.1.20 is a private or reserved address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a private or reserved address'],
    ['http://127.0.0.1:3000/cb', '127.0.0.1 is a private or reserved address'],
    ['http://[::1]/cb', '::1 is a private or reserved address'],
    ['http://localhost:8080/cb', 'localhost resolves to'],
    // IPv6 forms embedding a loopback or metadata IPv4 address: IPv4-compatible, NAT64, 6to4.
    ['http://[::127.0.0.1]/cb', '::7f00:1 is a private or reserved address'],
    ['http://[::a9fe:a9fe]/latest/meta-data', '::a9fe:a9fe is a private or reserved address'],
    ['http://[64:ff9b::169.254.169.254]/latest/meta-data', '64:ff9b::a9fe:a9fe is a private or reserved address'],
    ['http://[2002:a9fe:a9fe::1]/latest/meta-data', '2002:a9fe:a9fe::1 is a private or reserved address'],
  ])('refuses a transfer whose notifyUrl is %s, changing nothing', async (notifyUrl, reason) => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_000_00n]);
    const inq = await request(http)
      .post('/api/v1/disbursement/account-inquiry')
      .set('token', token)
      .send({
        merchantTrxId: `INV-${randomUUID().slice(0, 8)}`,
        accountNo: '1234567890',
        bankCode: 'BCA',
        amount: 100000,
      });
    const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
    const res = await request(http)
      .post('/api/v1/disbursement/transfer')
      .set('token', token)
      .send({ ...fields, notifyUrl });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('NOTIFY_URL_NOT_ALLOWED');
    expect(res.body.message).toContain(`notifyUrl: ${reason}`);
    expect(res.body.message).toContain('callbacks go to public addresses only');
    expect(await gateway.prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('refuses to start in production with WEBHOOK_ALLOW_LOOPBACK=true', () => {
    expect(() =>
      loadConfig(gatewayConfigSchema, {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://u@h:5432/d',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig(gatewayConfigSchema, {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://u@h:5432/d',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(/WEBHOOK_ALLOW_LOOPBACK: must not be true when NODE_ENV=production/);
  });

  it('refuses to start in production with any WEBHOOK_ALLOW_PRIVATE_HOSTS, and anywhere with an IP address in it', () => {
    const env = { DATABASE_URL: 'postgresql://u@h:5432/d' };
    expect(() =>
      loadConfig(gatewayConfigSchema, { ...env, NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_HOSTS: 'e2e' }),
    ).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS: must be empty when NODE_ENV=production/);
    expect(loadConfig(gatewayConfigSchema, { ...env, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'E2E' }).webhooks).toEqual({
      allowLoopback: false,
      allowPrivateHosts: ['e2e'],
    });
    expect(() => loadConfig(gatewayConfigSchema, { ...env, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'e2e,172.18.0.5' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_HOSTS: "172.18.0.5" is not a host name',
    );
  });

  it('serves the ledger audit to operators: clean, then naming a pay-in never booked', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect((await request(ops).get('/ops/ledger/verify')).status).toBe(401);
    const { merchant } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_000n]);
    const clean = await request(ops).get(`/ops/ledger/verify?merchantId=${merchant.id}`).set(auth);
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({
      message: 'Ledger audit: clean',
      data: { merchantsChecked: 1, eventsChecked: 2, breaches: [], inFlight: [], graceSeconds: 300 },
    });

    const payinId = await insertSuccessfulPayin(gateway.prisma, merchant.id, 50_000n, 0n);
    const dirty = await request(ops).get(`/ops/ledger/verify?merchantId=${merchant.id}&grace=0`).set(auth);
    expect(dirty.status).toBe(200);
    expect(dirty.body.message).toBe('Ledger audit: 1 breach(es)');
    expect(dirty.body.data.breaches).toEqual([
      {
        check: 'payin.event_missing',
        table: 'payins',
        id: payinId,
        merchantId: merchant.id,
        expected: '1 payin.recorded event of pending +50000',
        found: 'none',
      },
    ]);
    expect((await request(ops).get('/ops/ledger/verify?grace=-1').set(auth)).status).toBe(400);
  });

  it("serves the books' trial balance to operators, now and at a day's close; a bad or future date is 400", async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect((await request(ops).get('/ops/ledger/trial-balance')).status).toBe(401);
    const { merchant } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_000n]);
    const now = await request(ops).get('/ops/ledger/trial-balance').set(auth);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ message: 'Trial balance: balanced', data: { asOf: null, balanced: true } });
    expect(now.body.data.totalDebit).toBe(now.body.data.totalCredit);
    expect(now.body.data.lines).toContainEqual({
      account: `merchant:${merchant.id}:available`,
      kind: 'liability',
      merchantId: merchant.id,
      debit: 0,
      credit: 10000,
    });
    const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
    const closed = await request(ops).get(`/ops/ledger/trial-balance?date=${today}`).set(auth);
    expect(closed.body.data).toMatchObject({ asOf: today, balanced: true });
    for (const date of ['2026-02-30', '28-11-2026', '2999-01-01']) {
      const refused = await request(ops).get(`/ops/ledger/trial-balance?date=${date}`).set(auth);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: false, logId: expect.any(String) });
    }
  });

  it('ops endpoints need the admin token', async () => {
    expect((await request(ops).get('/ops/webhooks/deliveries/x')).status).toBe(401);
    expect((await request(ops).get('/ops/webhooks/deliveries/x').set('authorization', 'Bearer wrong')).status).toBe(
      401,
    );
    // During a rotation the previous token still opens the ops API; a token never configured does not.
    expect((await request(ops).get('/ops/dead-letters').set('authorization', `Bearer ${OLD_ADMIN_TOKEN}`)).status).toBe(
      200,
    );
    expect(
      (await request(ops).get('/ops/dead-letters').set('authorization', `Bearer ${OLD_ADMIN_TOKEN}x`)).status,
    ).toBe(401);
    const missing = await request(ops)
      .get(`/ops/webhooks/deliveries/${randomUUID()}`)
      .set('authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: false, code: 'NOT_FOUND', message: 'Webhook delivery not found' });
  });

  it('resends a delivery (keeping its event id) and all failed ones of a merchant since a time', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const mk = (status: string, eventId: string) =>
      gateway.prisma.webhookDelivery.create({
        data: {
          id: randomUUID(),
          eventId,
          eventType: 'disbursement.failed',
          merchantId: merchant.id,
          url: 'https://merchant.example/cb',
          body: '{}',
          status,
          attemptCount: 3,
          cycleAttempts: 3,
        },
      });
    const dead = await mk('dead', `evt-${randomUUID()}`);
    const failed = await mk('failed', `evt-${randomUUID()}`);
    const delivered = await mk('delivered', `evt-${randomUUID()}`);
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

    const one = await request(ops).post(`/ops/webhooks/deliveries/${dead.id}/resend`).set(auth);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ id: dead.id, eventId: dead.eventId, status: 'pending' });
    expect(await gateway.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: dead.id } })).toMatchObject({
      status: 'pending',
      cycleAttempts: 0,
      resendCount: 1,
      eventId: dead.eventId,
    });

    const bad = await request(ops)
      .post('/ops/webhooks/resend-failed')
      .set(auth)
      .send({ merchantId: merchant.id, since: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^since: /);

    const many = await request(ops)
      .post('/ops/webhooks/resend-failed')
      .set(auth)
      .send({ merchantId: merchant.id, since: new Date(Date.now() - 60_000).toISOString() });
    expect(many.status).toBe(200);
    expect(many.body.data.resent).toEqual([failed.eventId]);
    expect((await gateway.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivered.id } })).status).toBe(
      'delivered',
    );

    const shown = await request(ops).get(`/ops/webhooks/deliveries/${failed.eventId}`).set(auth);
    expect(shown.body.data).toMatchObject({ id: failed.id, status: 'pending', attempts: [] });
    // An attempt's id is a bigint: answered as text (JSON has no bigint), as docs/ops-openapi.json says.
    await gateway.prisma.webhookAttempt.create({
      data: {
        deliveryId: dead.id,
        attemptNo: 1,
        startedAt: new Date(),
        latencyMs: 12,
        statusCode: 503,
        outcome: 'retry',
      },
    });
    const attempted = await request(ops).get(`/ops/webhooks/deliveries/${dead.id}`).set(auth);
    expect(attempted.status).toBe(200);
    expect(attempted.body.data.attempts).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^\d+$/), attemptNo: 1, statusCode: 503, outcome: 'retry' }),
    ]);
  });

  it('serves Bull Board behind basic auth', async () => {
    expect((await request(ops).get('/ops/queues')).status).toBe(401);
    expect((await request(ops).get('/ops/queues').auth('admin', OLD_ADMIN_TOKEN)).status).toBe(200);
    expect((await request(ops).get('/ops/queues').auth('admin', 'not-a-token-0123456789abcdef0123456789')).status).toBe(
      401,
    );
    const page = await request(ops).get('/ops/queues').auth('admin', ADMIN_TOKEN);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const api = await request(ops).get('/ops/queues/api/queues').auth('admin', ADMIN_TOKEN);
    expect(api.status).toBe(200);
    expect(JSON.stringify(api.body)).toContain('recon-export');
    expect(JSON.stringify(api.body)).toContain('settlement');
  });
});
