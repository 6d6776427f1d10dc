import { randomUUID } from 'node:crypto';
import { parseAmount } from '@pay/domain';
import type { LedgerCommand } from '@pay/contracts';
import { createPgPool } from '@pay/persistence';
import {
  createMerchant,
  type DashboardSignIn,
  insertPayin,
  ledgerCommand,
  ledgerFor,
  signedInMerchantUser,
  signedInOperator,
  type TestDashboardUser,
} from '@pay/testing';
import type { Pool } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

interface AuditRow {
  operator_user_id: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  log_id: string;
}

/** The operator console's API over HTTP on the internal port, judged by what the merchant API and the ledger do next, and by the audit log. */
describe('operator console API (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;
  let internal: App;
  let pool: Pool;
  let operator: TestDashboardUser & DashboardSignIn;

  beforeAll(async () => {
    gateway = await startTestGateway();
    http = gateway.app.getHttpServer();
    internal = gateway.internalServer;
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
    operator = await signedInOperator(gateway.prisma, gateway.internalServer);
  });
  afterAll(async () => {
    await pool.end();
    await gateway.close();
  });

  const get = (path: string) => request(internal).get(`/console/api${path}`).set(operator.headers);
  const post = (path: string, body?: object) =>
    request(internal).post(`/console/api${path}`).set(operator.headers).send(body);
  const put = (path: string, body: object) =>
    request(internal).put(`/console/api${path}`).set(operator.headers).send(body);
  const balance = (token: string) => request(http).get('/api/v1/payin/balance').set('token', token);
  const auditOf = async (target: string) =>
    (
      await pool.query<AuditRow>(
        'SELECT operator_user_id::text, action, target, details, log_id::text FROM operator_audit_log WHERE target = $1 ORDER BY id',
        [target],
      )
    ).rows;

  it('deactivate refuses the merchant token (one audit row with the operator and the logId); activate lets it in again', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const off = await post(`/merchants/${merchant.id}/deactivate`);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      status: true,
      message: 'Merchant deactivated',
      data: { id: merchant.id, active: false },
    });
    expect((await balance(token)).body).toMatchObject({ status: false, code: 'MERCHANT_NOT_ACTIVE' });
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([
      {
        operator_user_id: String(operator.userId),
        action: 'merchant.deactivate',
        target: `merchant:${merchant.id}`,
        details: { changes: { isActive: { from: true, to: false } } },
        log_id: off.body.logId,
      },
    ]);
    expect(off.headers['x-log-id']).toBe(off.body.logId);

    const on = await post(`/merchants/${merchant.id}/activate`);
    expect(on.body.data.active).toBe(true);
    expect((await balance(token)).status).toBe(200);
    expect((await auditOf(`merchant:${merchant.id}`)).map((r) => [r.action, r.log_id])).toEqual([
      ['merchant.deactivate', off.body.logId],
      ['merchant.activate', on.body.logId],
    ]);
  });

  it('lists and shows merchants with their balance and active flag; fees set show on the merchant', async () => {
    const { merchant } = await createMerchant(gateway.prisma, { name: 'Toko Console' });
    const set = await put(`/merchants/${merchant.id}/fees`, { payoutFee: 3000.5, payinFeePercent: 1.25 });
    expect(set.status).toBe(200);
    const shown = await get(`/merchants/${merchant.id}`);
    expect(shown.body).toMatchObject({
      status: true,
      message: 'Merchant found',
      data: {
        id: merchant.id,
        name: 'Toko Console',
        active: true,
        payinFee: { percentage: 1.25, fixed: 150 },
        payoutFee: 3000.5,
        balance: { available: 0, pending: 0 },
      },
    });
    const listed = await get('/merchants');
    expect(listed.body.message).toMatch(/^\d+ merchant\(s\)$/);
    expect(listed.body.data).toEqual(expect.arrayContaining([shown.body.data]));
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([
      expect.objectContaining({
        action: 'merchant.fees',
        details: {
          payoutFee: 3000.5,
          payinFeePercent: 1.25,
          changes: {
            payinFeePctMilli: { from: 700, to: 1250 },
            payoutFeeFlat: { from: 250000, to: 300050 },
          },
        },
        log_id: set.body.logId,
      }),
    ]);

    const qris = await put(`/merchants/${merchant.id}/qris-identity`, { mcc: '5812', city: 'Bandung' });
    expect(qris.body.data.qris).toMatchObject({ mcc: '5812', city: 'Bandung' });
    const schedule = await put(`/merchants/${merchant.id}/settlement-schedule`, { delayDays: 2, hour: 9 });
    expect(schedule.body.data.settlement).toBe('T+2 at 09:00 Asia/Jakarta');
    expect((await auditOf(`merchant:${merchant.id}`)).map((r) => r.action)).toEqual([
      'merchant.fees',
      'merchant.qris-identity',
      'merchant.settlement-schedule',
    ]);
  });

  it('refused actions answer 400 or 404 envelopes and write no audit row', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const refusals = [
      [await put(`/merchants/${merchant.id}/fees`, { payoutFee: -5 }), 400, 'VALIDATION_ERROR'],
      [await put(`/merchants/${merchant.id}/fees`, { payoutFee: 1, fee: 2 }), 400, 'VALIDATION_ERROR'],
      [await put(`/merchants/${merchant.id}/qris-identity`, { nmid: 'XX1' }), 400, 'VALIDATION_ERROR'],
      [await put(`/merchants/${merchant.id}/settlement-schedule`, { hour: 24 }), 400, 'VALIDATION_ERROR'],
      [await post('/merchants', { name: '' }), 400, 'VALIDATION_ERROR'],
      [
        await post('/settlements/run', {
          merchantId: merchant.id,
          cutoff: new Date(Date.now() + 3_600_000).toISOString(),
        }),
        400,
        'VALIDATION_ERROR',
      ],
      [await get('/webhook-deliveries?status=lost'), 400, 'VALIDATION_ERROR'],
      [await get('/audit-log?before=abc'), 400, 'VALIDATION_ERROR'],
      [await post('/merchants/987654/deactivate'), 404, 'NOT_FOUND'],
      [await post('/merchants/abc/activate'), 404, 'NOT_FOUND'],
      [await get('/merchants/987654'), 404, 'NOT_FOUND'],
      [await post('/dead-letters/987654321/replay'), 404, 'NOT_FOUND'],
      [await post('/dead-letters/x/replay'), 404, 'NOT_FOUND'],
      [await post('/dead-letters/99999999999999999999/replay'), 404, 'NOT_FOUND'],
      [await post('/dead-letters/9999999999999999999/replay'), 404, 'NOT_FOUND'],
      [await post(`/webhook-deliveries/${randomUUID()}/resend`), 404, 'NOT_FOUND'],
      [await post(`/webhook-deliveries/${'-'.repeat(36)}/resend`), 404, 'NOT_FOUND'],
      [await get('/audit-log?before=99999999999999999999'), 400, 'VALIDATION_ERROR'],
    ] as const;
    for (const [res, status, code] of refusals) {
      expect([res.status, res.body.code, res.body.status]).toEqual([status, code, false]);
    }
    const logIds = refusals.map(([res]) => res.body.logId as string);
    expect(
      (await pool.query('SELECT count(*)::int AS n FROM operator_audit_log WHERE log_id = ANY($1::uuid[])', [logIds]))
        .rows[0].n,
    ).toBe(0);
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([]);
  });

  it('creates a merchant whose token works at once; the token and the webhook secret are not in the audit log', async () => {
    const created = await post('/merchants', { name: 'Toko Baru Console' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: true,
      message: 'Merchant created',
      data: {
        merchantId: expect.any(Number),
        name: 'Toko Baru Console',
        token: expect.any(String),
        webhookSecret: expect.stringMatching(/^whsec_/),
      },
    });
    const { merchantId, token, webhookSecret } = created.body.data as {
      merchantId: number;
      token: string;
      webhookSecret: string;
    };
    expect((await balance(token)).status).toBe(200);
    const rows = await auditOf(`merchant:${merchantId}`);
    expect(rows).toEqual([
      {
        operator_user_id: String(operator.userId),
        action: 'merchant.create',
        target: `merchant:${merchantId}`,
        details: { name: 'Toko Baru Console' },
        log_id: created.body.logId,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(webhookSecret);
  });

  it('replays a dead letter: it leaves the open list, its copy goes out through the outbox and the ledger applies it', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const amount = parseAmount(50000);
    const fee = parseAmount(500);
    const payinId = await insertPayin(gateway.prisma, merchant.id, amount, fee);
    const command = ledgerCommand.recordPayin(merchant.id, payinId, amount, fee);
    // As the archiver leaves a money command dead-lettered during a database outage.
    const letter = await gateway.prisma.deadLetter.create({
      data: {
        dlqTopic: 'ledger.commands.v1.dlq',
        dlqRecordId: `3:${Date.now()}-0`,
        topic: 'ledger.commands.v1',
        originalId: '3:1-0',
        consumerGroup: 'ledger',
        key: String(merchant.id),
        value: JSON.stringify(command),
        fault: 'unknown',
        error: 'terminating connection',
        deliveryCount: 10,
        deadLetteredAt: new Date(),
      },
    });
    const id = letter.id.toString();
    const open = await get('/dead-letters');
    expect(open.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, status: 'open', value: command })]),
    );

    const replayed = await post(`/dead-letters/${id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({
      status: true,
      message: 'Dead letter replayed',
      data: { id, status: 'replayed' },
    });
    expect((await get('/dead-letters')).body.data.map((d: { id: string }) => d.id)).not.toContain(id);
    expect((await get('/dead-letters?status=replayed')).body.data.map((d: { id: string }) => d.id)).toContain(id);
    expect(await auditOf(`dead-letter:${id}`)).toEqual([
      expect.objectContaining({ action: 'dead-letter.replay', log_id: replayed.body.logId }),
    ]);

    // No relay or ledger runs here: the outbox copy is what the relay would publish; the ledger applies it.
    const outbox = await gateway.prisma.outbox.findUniqueOrThrow({
      where: { id: BigInt(replayed.body.data.replayOutboxId) },
    });
    expect(outbox.payload).toEqual(command);
    await ledgerFor(gateway.prisma).apply(outbox.payload as unknown as LedgerCommand);
    expect((await get(`/merchants/${merchant.id}`)).body.data.balance).toEqual({ available: 0, pending: 49500 });

    const again = await post(`/dead-letters/${id}/replay`);
    expect(again.body).toMatchObject({
      status: false,
      code: 'VALIDATION_ERROR',
      message: 'Dead letter is replayed already',
    });
    expect(await auditOf(`dead-letter:${id}`)).toHaveLength(1);
  });

  it('lists webhook deliveries by merchant and status, and resends one', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const mk = (status: string) =>
      gateway.prisma.webhookDelivery.create({
        data: {
          id: randomUUID(),
          eventId: `evt-${randomUUID()}`,
          eventType: 'disbursement.failed',
          merchantId: merchant.id,
          url: 'https://merchant.example/cb',
          body: '{}',
          status,
          attemptCount: 3,
          cycleAttempts: 3,
          lastStatusCode: 502,
        },
      });
    const dead = await mk('dead');
    const delivered = await mk('delivered');
    const all = await get(`/webhook-deliveries?merchantId=${merchant.id}`);
    expect(all.body.data.map((d: { id: string }) => d.id).sort()).toEqual([dead.id, delivered.id].sort());
    expect(all.body.data[0]).not.toHaveProperty('body');
    const deadOnly = await get(`/webhook-deliveries?merchantId=${merchant.id}&status=dead`);
    expect(deadOnly.body.data).toEqual([
      expect.objectContaining({
        id: dead.id,
        eventId: dead.eventId,
        merchantId: merchant.id,
        status: 'dead',
        attemptCount: 3,
        lastStatusCode: 502,
        createdAt: dead.createdAt.toISOString(),
      }),
    ]);

    const resent = await post(`/webhook-deliveries/${dead.id}/resend`);
    expect(resent.body).toMatchObject({
      status: true,
      message: 'Delivery queued for resend',
      data: { id: dead.id, eventId: dead.eventId, status: 'pending' },
    });
    expect(await auditOf(`webhook-delivery:${dead.id}`)).toEqual([
      expect.objectContaining({ action: 'webhook-delivery.resend', log_id: resent.body.logId }),
    ]);
  });

  it('lists settlements and requests a run', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const nothing = await post('/settlements/run', { merchantId: merchant.id });
    expect(nothing.body).toMatchObject({
      status: true,
      message: 'Nothing to settle',
      data: { merchantId: merchant.id, payinCount: 0, requested: false },
    });
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([
      expect.objectContaining({ action: 'settlement.run', details: { merchantId: merchant.id } }),
    ]);
    await gateway.prisma.settlement.create({
      data: {
        id: randomUUID(),
        merchantId: merchant.id,
        amount: 99_000n,
        gross: 100_000n,
        fees: 1_000n,
        payinCount: 2,
        cutoffAt: new Date(),
      },
    });
    const listed = await get(`/settlements?merchantId=${merchant.id}`);
    expect(listed.body).toMatchObject({
      status: true,
      message: '1 settlement(s)',
      data: [{ merchantId: merchant.id, amount: 990, gross: 1000, fees: 10, payinCount: 2 }],
    });
  });

  it("a merchant's integration from the console: a token issued works at once and is refused once revoked; the webhook secret revealed and rotated; allowlist, callback URL and rate limits set; each in the audit log, no secret in it", async () => {
    const { merchant, token: first } = await createMerchant(gateway.prisma, { name: 'Toko Integrasi' });
    const del = (path: string) => request(internal).delete(`/console/api${path}`).set(operator.headers);

    // Tokens: issued (shown once), listed without the token, working at once, refused once revoked.
    const issued = await post(`/merchants/${merchant.id}/tokens`, { label: 'kasir' });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      status: true,
      message: 'Token issued; it is shown only now',
      data: { merchantId: merchant.id, id: expect.any(String), prefix: expect.any(String), token: expect.any(String) },
    });
    const newToken = issued.body.data.token as string;
    expect((await balance(newToken)).status).toBe(200);
    const listed = await get(`/merchants/${merchant.id}/tokens`);
    expect(listed.body.data.map((t: { label: string }) => t.label)).toEqual(expect.arrayContaining(['kasir']));
    expect(JSON.stringify(listed.body)).not.toContain(newToken);
    const revoked = await del(`/tokens/${issued.body.data.id}`);
    expect(revoked.body).toMatchObject({ status: true, data: { id: issued.body.data.id, merchantId: merchant.id } });
    expect((await balance(newToken)).body).toMatchObject({ status: false });
    expect((await balance(newToken)).status).toBe(401);
    expect((await balance(first)).status).toBe(200);

    // The webhook secret: revealed as stored; rotated, the old one signing for 24 hours.
    const stored = async () =>
      (
        await pool.query<{ webhook_secret: string }>('SELECT webhook_secret FROM merchants WHERE id = $1', [
          merchant.id,
        ])
      ).rows[0].webhook_secret;
    const revealed = await get(`/merchants/${merchant.id}/webhook-secret`);
    expect(revealed.body.data).toEqual({ merchantId: merchant.id, secret: await stored(), previousExpiresAt: null });
    const rotated = await post(`/merchants/${merchant.id}/webhook-secret/rotate`, { graceHours: 24 });
    expect(rotated.body.data.secret).not.toBe(revealed.body.data.secret);
    expect(rotated.body.data.secret).toBe(await stored());
    const grace = new Date(rotated.body.data.previousExpiresAt).getTime() - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3_600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3_600_000);

    // The allowlist: enabled for another address refuses the merchant's token; disabled lets it in.
    const listedOnly = await put(`/merchants/${merchant.id}/allowlist`, { entries: ['203.0.113.7'], enabled: true });
    expect(listedOnly.body.data.ipAllowlist).toEqual({ enabled: true, entries: ['203.0.113.7'] });
    expect((await balance(first)).body).toMatchObject({ status: false, code: 'IP_NOT_ALLOWED' });
    const off = await put(`/merchants/${merchant.id}/allowlist`, { entries: ['203.0.113.7'], enabled: false });
    expect(off.body.data.ipAllowlist.enabled).toBe(false);
    expect((await balance(first)).status).toBe(200);

    // The default pay-in callback URL and the rate limits, on the merchant as the console shows it.
    const url = await put(`/merchants/${merchant.id}/payin-callback-url`, { url: 'https://toko.example/cb' });
    expect(url.body).toMatchObject({
      message: 'Pay-in callback URL set',
      data: { payinCallbackUrl: 'https://toko.example/cb' },
    });
    const limits = await put(`/merchants/${merchant.id}/rate-limits`, { read: 7, write: null, export: 2 });
    expect(limits.body.data.rateLimits).toEqual({ readPerSecond: 7, writePerSecond: 'default', exportsPerMinute: 2 });
    expect((await get(`/merchants/${merchant.id}`)).body.data).toMatchObject({
      payinCallbackUrl: 'https://toko.example/cb',
      rateLimits: { readPerSecond: 7, writePerSecond: 'default', exportsPerMinute: 2 },
    });

    // Refused input changes nothing and writes no row.
    const refused = [
      await put(`/merchants/${merchant.id}/rate-limits`, { read: 0 }),
      await put(`/merchants/${merchant.id}/allowlist`, { entries: ['not-an-ip'], enabled: true }),
      await put(`/merchants/${merchant.id}/payin-callback-url`, { url: 'ftp://toko.example' }),
      await post(`/merchants/${merchant.id}/webhook-secret/rotate`, { graceHours: -1 }),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([400, 'VALIDATION_ERROR']));
    expect((await get(`/merchants/${merchant.id}`)).body.data.rateLimits.readPerSecond).toBe(7);

    const rows = await auditOf(`merchant:${merchant.id}`);
    expect(rows.map((r) => r.action)).toEqual([
      'token.create',
      'webhook-secret.reveal',
      'webhook-secret.rotate',
      'merchant.allowlist',
      'merchant.allowlist',
      'merchant.payin-callback-url',
      'merchant.rate-limits',
    ]);
    expect(rows.every((r) => r.operator_user_id === String(operator.userId))).toBe(true);
    expect(rows[3].details).toMatchObject({
      changes: { ipAllowlistEnabled: { from: false, to: true }, ipAllowlist: { from: [], to: ['203.0.113.7'] } },
    });
    expect(rows[6].details).toMatchObject({ changes: { rateLimitRead: { from: null, to: 7 } } });
    expect(await auditOf(`token:${issued.body.data.id}`)).toEqual([
      expect.objectContaining({ action: 'token.revoke', log_id: revoked.body.logId }),
    ]);
    const everything = JSON.stringify([rows, await auditOf(`token:${issued.body.data.id}`)]);
    for (const secret of [newToken, revealed.body.data.secret, rotated.body.data.secret])
      expect(everything).not.toContain(secret);
  });

  it('creates a merchant dashboard user with a one-time set-password link; a second one with the same email is a conflict', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const email = `Finance-${randomUUID().slice(0, 8)}@Toko.example`;
    const created = await post(`/merchants/${merchant.id}/users`, { email });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: true,
      data: {
        userId: expect.any(Number),
        email: email.toLowerCase(),
        role: 'merchant',
        merchantId: merchant.id,
        setPasswordUrl: expect.stringMatching(/\/#\/set-password\/\S+$/),
      },
    });
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([
      expect.objectContaining({ action: 'merchant-user.create', details: { email }, log_id: created.body.logId }),
    ]);
    expect(JSON.stringify(await auditOf(`merchant:${merchant.id}`))).not.toContain(
      created.body.data.setPasswordUrl.split('/').at(-1),
    );

    const again = await post(`/merchants/${merchant.id}/users`, { email });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    const bad = await post(`/merchants/${merchant.id}/users`, { email: 'not-an-email' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(
      (await post('/merchants/987654/users', { email: `x-${randomUUID().slice(0, 8)}@toko.example` })).status,
    ).toBe(404);
    expect(await auditOf(`merchant:${merchant.id}`)).toHaveLength(1);
  });

  it('needs an operator session and its CSRF token: no session, a merchant session or no token are refused and change nothing', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const anonymous = await request(internal).post(`/console/api/merchants/${merchant.id}/deactivate`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: false, code: 'SESSION_REQUIRED' });
    expect((await request(internal).get('/console/api/merchants')).body.code).toBe('SESSION_REQUIRED');

    // A merchant user signed in on the dashboard: its cookie, as sent to the console, and renamed to the console's cookie.
    const merchantUser = await signedInMerchantUser(gateway.prisma, gateway.app.getHttpServer(), merchant.id);
    const value = merchantUser.cookie.split('=').slice(1).join('=');
    for (const cookie of [merchantUser.cookie, `pay_console_session=${value}`]) {
      const res = await request(internal)
        .post(`/console/api/merchants/${merchant.id}/deactivate`)
        .set({ cookie, 'x-csrf-token': merchantUser.csrfToken });
      expect([res.status, res.body.code]).toEqual([401, 'SESSION_REQUIRED']);
      expect((await request(internal).get('/console/api/merchants').set({ cookie })).status).toBe(401);
    }

    const noCsrf = await request(internal)
      .post(`/console/api/merchants/${merchant.id}/deactivate`)
      .set({ cookie: operator.cookie });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    expect((await balance(token)).status).toBe(200);
    expect(await auditOf(`merchant:${merchant.id}`)).toEqual([]);
    // Never on the public port.
    expect((await request(http).get('/console/api/merchants').set(operator.headers)).status).toBe(404);
  });

  it('reads the audit log newest first, page by page', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    for (const hour of [1, 2, 3]) await put(`/merchants/${merchant.id}/settlement-schedule`, { hour });
    const first = await get(`/audit-log?target=merchant:${merchant.id}&limit=2`);
    expect(first.body).toMatchObject({ status: true, message: '2 audit entry(ies)' });
    expect(first.body.data.entries.map((e: { details: { hour: number } }) => e.details.hour)).toEqual([3, 2]);
    expect(first.body.data.entries[0]).toEqual({
      id: expect.any(String),
      operatorUserId: operator.userId,
      actor: null,
      operatorEmail: operator.email,
      action: 'merchant.settlement-schedule',
      target: `merchant:${merchant.id}`,
      details: { hour: 3, changes: { settlementHour: { from: 2, to: 3 } } },
      logId: expect.any(String),
      at: expect.any(String),
    });
    const second = await get(`/audit-log?target=merchant:${merchant.id}&limit=2&before=${first.body.data.nextBefore}`);
    expect(second.body.data).toMatchObject({ entries: [{ details: { hour: 1 } }], nextBefore: null });
  });
});
