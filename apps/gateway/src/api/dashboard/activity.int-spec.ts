import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { WebhookDeliveryRepository } from '@pay/persistence';
import {
  createDashboardUser,
  createDisbursement,
  createMerchant,
  type DashboardSignIn,
  fundMerchant,
  signInDashboard,
  signedInMerchantUser,
  signedInOperator,
} from '@pay/testing';
import { Secret, TOTP } from 'otpauth';
import request from 'supertest';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const codeOf = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
const jakartaToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

interface Row {
  operator_user_id: string;
  merchant_id: number | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  log_id: string | null;
}

/** The merchant's activity log (decision 0023): one row per change of its dashboard users, its sign-ins and sign-outs; tenant isolation; the console's audit log unchanged. */
describe('merchant activity log (real Postgres)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;

  beforeAll(async () => {
    gateway = await startTestGateway({ SANDBOX_MODE: 'true' });
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(() => gateway?.close());

  const rowsOf = async (merchantId: number) =>
    gateway.prisma.$queryRawUnsafe<Row[]>(
      'SELECT operator_user_id::text, merchant_id, action, target, details, log_id::text FROM operator_audit_log WHERE merchant_id = $1 ORDER BY id',
      merchantId,
    );
  const rowsOfLog = async (logId: string) =>
    gateway.prisma.$queryRawUnsafe<Row[]>(
      'SELECT operator_user_id::text, merchant_id, action, target, details, log_id::text FROM operator_audit_log WHERE log_id = $1::uuid',
      logId,
    );
  /** A refused sign-in's row is written once its answer has left (it must not make that answer slower): wait for `n` rows. */
  const settledRowsOf = async (merchantId: number, n: number, of = (_r: Row) => true) => {
    for (const until = Date.now() + 5_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const rows = (await rowsOf(merchantId)).filter(of);
      if (rows.length >= n || Date.now() > until) return rows;
    }
  };
  const ageAuthentication = async (signIn: DashboardSignIn, minutes: number) => {
    const at = new Date(Date.now() - minutes * 60_000);
    await gateway.prisma
      .$executeRaw`UPDATE dashboard_sessions SET authenticated_at = ${at} WHERE id_hash = ${sha256(cookieValue(signIn.cookie))}`;
  };

  it('writes exactly one row per change, with the acting user and the logId, and never a token, secret or code', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    const api = {
      post: (p: string, body: object = {}) => request(pub).post(`/dashboard/api${p}`).set(user.headers).send(body),
      put: (p: string, body: object) => request(pub).put(`/dashboard/api${p}`).set(user.headers).send(body),
      delete: (p: string) => request(pub).delete(`/dashboard/api${p}`).set(user.headers),
    };
    const secrets: string[] = [];
    const expectOne = async (
      res: request.Response,
      status: number,
      action: string,
      target: string,
      details: Record<string, unknown> = {},
    ) => {
      expect([action, res.status]).toEqual([action, status]);
      expect(await rowsOfLog(res.body.logId)).toEqual([
        {
          operator_user_id: String(user.userId),
          merchant_id: merchant.id,
          action,
          target,
          details,
          log_id: res.body.logId,
        },
      ]);
    };

    const issued = await api.post('/tokens', { label: 'checkout' });
    secrets.push(issued.body.data.token);
    await expectOne(issued, 201, 'token.create', `token:${issued.body.data.id}`, { label: 'checkout' });
    await expectOne(
      await api.delete(`/tokens/${issued.body.data.id}`),
      200,
      'token.revoke',
      `token:${issued.body.data.id}`,
    );
    const rotated = await api.post('/webhook-secret/rotate', { graceHours: 1 });
    secrets.push(rotated.body.data.secret);
    await expectOne(rotated, 200, 'webhook-secret.rotate', 'webhook-secret', { graceHours: 1 });
    await expectOne(
      await api.put('/callback-url', { url: 'https://93.184.216.34/cb' }),
      200,
      'callback-url.set',
      'callback-url',
      { url: 'https://93.184.216.34/cb' },
    );
    await expectOne(
      await api.put('/allowlist', { enabled: false, entries: ['203.0.113.7'] }),
      200,
      'allowlist.set',
      'allowlist',
      { enabled: false, entries: ['203.0.113.7'] },
    );

    const setup = await api.post('/totp/setup');
    secrets.push(setup.body.data.secret);
    await expectOne(setup, 200, 'totp.setup', `user:${user.userId}`);
    const enableCode = codeOf(setup.body.data.secret, Date.now() - 30_000);
    secrets.push(enableCode);
    await expectOne(await api.post('/totp/enable', { code: enableCode }), 200, 'totp.enable', `user:${user.userId}`);
    const disableCode = codeOf(setup.body.data.secret);
    secrets.push(disableCode);
    await expectOne(await api.post('/totp/disable', { code: disableCode }), 200, 'totp.disable', `user:${user.userId}`);

    const qr = await api.post('/payins', { merchantTrxId: 'ACT-1', amount: 10000 });
    await expectOne(qr, 201, 'payin.create', 'payin:ACT-1', { merchantTrxId: 'ACT-1', amount: 10000 });
    await expectOne(await api.post('/payins/ACT-1/simulate'), 200, 'payin.simulate', 'payin:ACT-1');

    await fundMerchant(gateway.prisma, merchant.id, [1_000_000_00n]);
    const { disbursement: d } = await createDisbursement(gateway.prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
    });
    await gateway.app.get(WebhookDeliveryRepository).create(
      {
        eventId: `evt-${randomUUID()}`,
        eventType: 'disbursement.success',
        merchantId: merchant.id,
        disbursementId: d.id,
        payinId: null,
        url: 'https://93.184.216.34/cb',
        body: '{}',
      },
      new Date(),
    );
    await expectOne(
      await api.post(`/payouts/${d.merchantTrxId}/callback/resend`),
      200,
      'payout.callback-resend',
      `payout:${d.merchantTrxId}`,
    );
    const date = jakartaToday();
    await expectOne(await api.post('/recon', { date }), 200, 'recon.export', `recon:${date}`, { date });

    const rows = await rowsOf(merchant.id);
    expect(rows.map((r) => r.action)).toEqual([
      'session.sign-in',
      'token.create',
      'token.revoke',
      'webhook-secret.rotate',
      'callback-url.set',
      'allowlist.set',
      'totp.setup',
      'totp.enable',
      'totp.disable',
      'payin.create',
      'payin.simulate',
      'payout.callback-resend',
      'recon.export',
    ]);
    const json = JSON.stringify(rows);
    for (const s of secrets) expect(json).not.toContain(s);
    expect(json).not.toContain(user.password);

    // The merchant reads it: newest first, the actor's email, paged.
    const page = await request(pub).get('/dashboard/api/activity').query({ limit: 2 }).set(user.headers);
    expect(page.status).toBe(200);
    expect(page.body.data.entries).toEqual([
      {
        id: expect.any(String),
        userId: user.userId,
        userEmail: user.email,
        action: 'recon.export',
        target: `recon:${date}`,
        details: { date },
        logId: expect.any(String),
        at: expect.any(String),
      },
      expect.objectContaining({ action: 'payout.callback-resend', userEmail: user.email }),
    ]);
    const next = await request(pub)
      .get('/dashboard/api/activity')
      .query({ limit: 50, before: page.body.data.nextBefore })
      .set(user.headers);
    expect(next.body.data.entries.map((e: { action: string }) => e.action)).toEqual(
      rows
        .slice(0, -2)
        .map((r) => r.action)
        .reverse(),
    );
    expect(next.body.data.nextBefore).toBeNull();
    expect(JSON.stringify(next.body.data)).not.toContain(issued.body.data.token);
    expect(
      (await request(pub).get('/dashboard/api/activity').query({ before: 'abc' }).set(user.headers)).body.code,
    ).toBe('VALIDATION_ERROR');
  });

  it('writes nothing for a refused action: 400, 404, 403 CSRF, 401 REAUTH_REQUIRED, 401 without a session', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    const before = await rowsOf(merchant.id);
    const refused: [request.Response, number][] = [
      [
        await request(pub)
          .post('/dashboard/api/tokens')
          .set(user.headers)
          .send({ label: 'x'.repeat(101) }),
        400,
      ],
      [
        await request(pub)
          .put('/dashboard/api/allowlist')
          .set(user.headers)
          .send({ entries: ['not an ip'] }),
        400,
      ],
      [
        await request(pub).put('/dashboard/api/callback-url').set(user.headers).send({ url: 'http://127.0.0.1/cb' }),
        400,
      ],
      [await request(pub).delete(`/dashboard/api/tokens/${randomUUID()}`).set(user.headers), 404],
      [await request(pub).post('/dashboard/api/payins').set(user.headers).send({ amount: -1 }), 400],
      [await request(pub).post('/dashboard/api/totp/enable').set(user.headers).send({ code: '000000' }), 409],
      [await request(pub).post('/dashboard/api/tokens').set({ cookie: user.cookie }).send({ label: 'no csrf' }), 403],
      [await request(pub).post('/dashboard/api/tokens').send({ label: 'no session' }), 401],
    ];
    await ageAuthentication(user, 11);
    const stale = await request(pub).post('/dashboard/api/tokens').set(user.headers).send({ label: 'stale' });
    expect(stale.body.code).toBe('REAUTH_REQUIRED');
    refused.push([stale, 401]);
    expect(refused.map(([res]) => res.status)).toEqual(refused.map(([, status]) => status));
    expect(await rowsOf(merchant.id)).toEqual(before);
    const logIds = refused.map(([res]) => res.body.logId as string);
    expect(
      (
        await gateway.prisma.$queryRawUnsafe<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM operator_audit_log WHERE log_id = ANY($1::uuid[])',
          logIds,
        )
      )[0].n,
    ).toBe(0);
  });

  it('lists sign-ins, refused sign-ins of its known users and sign-outs; not an unknown email, not the TOTP step, not attempts the throttle turned away', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
    const wrong = await request(pub)
      .post('/dashboard/api/session')
      .send({ email: user.email, password: 'not the password at all' });
    expect(wrong.body.code).toBe('SIGN_IN_FAILED');
    const unknown = await request(pub)
      .post('/dashboard/api/session')
      .send({ email: `nobody-${randomUUID()}@test.example`, password: 'not the password at all' });
    expect(unknown.body.code).toBe('SIGN_IN_FAILED');
    const signIn = await signInDashboard(pub, user);
    const out = await request(pub).delete('/dashboard/api/session').set(signIn.headers);
    expect(out.status).toBe(200);

    const rows = await settledRowsOf(merchant.id, 3);
    const target = `user:${user.userId}`;
    expect(rows).toEqual([
      {
        operator_user_id: String(user.userId),
        merchant_id: merchant.id,
        action: 'session.sign-in-failed',
        target,
        details: { reason: 'SIGN_IN_FAILED' },
        log_id: wrong.body.logId,
      },
      expect.objectContaining({ action: 'session.sign-in', target, details: {} }),
      {
        operator_user_id: String(user.userId),
        merchant_id: merchant.id,
        action: 'session.sign-out',
        target,
        details: {},
        log_id: out.body.logId,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('not the password at all');
    expect(await rowsOfLog(unknown.body.logId)).toEqual([]);

    // Five wrong passwords are listed; the attempts the backoff then turns away (429, no password
    // checked) are not: whoever knows an email cannot fill its merchant's log faster than it can guess.
    const guessed = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
    const codes: string[] = [];
    for (let i = 0; i < 7; i += 1)
      codes.push(
        (
          await request(pub)
            .post('/dashboard/api/session')
            .send({ email: guessed.email, password: 'wrong wrong wrong' })
        ).body.code,
      );
    expect(codes).toEqual([
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    const ofGuessed = (r: Row) => r.target === `user:${guessed.userId}`;
    await settledRowsOf(merchant.id, 5, ofGuessed);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const guessedRows = (await rowsOf(merchant.id)).filter(ofGuessed);
    expect(guessedRows.map((r) => r.details.reason)).toEqual([
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
      'SIGN_IN_FAILED',
    ]);

    const secret = new Secret({ size: 20 }).base32;
    const twoFactor = await createDashboardUser(gateway.prisma, { merchantId: merchant.id, totpSecret: secret });
    const step = await request(pub)
      .post('/dashboard/api/session')
      .send({ email: twoFactor.email, password: twoFactor.password });
    expect(step.body.code).toBe('TOTP_REQUIRED');
    expect(await rowsOfLog(step.body.logId)).toEqual([]);
  });

  it("shows a merchant only its own activity; the console's audit log keeps operators' rows only; operator sign-ins write nothing", async () => {
    const a = await createMerchant(gateway.prisma);
    const b = await createMerchant(gateway.prisma);
    const userA = await signedInMerchantUser(gateway.prisma, pub, a.merchant.id);
    const userB = await signedInMerchantUser(gateway.prisma, pub, b.merchant.id);
    await request(pub).post('/dashboard/api/tokens').set(userA.headers).send({ label: 'a only' }).expect(201);

    const seenByB = await request(pub).get('/dashboard/api/activity').set(userB.headers);
    expect(seenByB.status).toBe(200);
    expect(seenByB.body.data.entries.map((e: { action: string; userId: number }) => [e.action, e.userId])).toEqual([
      ['session.sign-in', userB.userId],
    ]);
    const seenByA = await request(pub).get('/dashboard/api/activity').set(userA.headers);
    expect(seenByA.body.data.entries.map((e: { action: string }) => e.action)).toEqual([
      'token.create',
      'session.sign-in',
    ]);
    expect((await request(pub).get('/dashboard/api/activity')).status).toBe(401);

    const operator = await signedInOperator(gateway.prisma, internal);
    expect((await request(internal).get('/console/api/session').set(operator.headers)).status).toBe(200);
    await request(internal)
      .post(`/console/api/merchants/${a.merchant.id}/deactivate`)
      .set(operator.headers)
      .send({})
      .expect(200);
    const log = await request(internal).get('/console/api/audit-log').query({ limit: 200 }).set(operator.headers);
    expect(log.status).toBe(200);
    const entries = log.body.data.entries as {
      action: string;
      operatorUserId: number | null;
      actor: string | null;
      target: string;
    }[];
    // Other suites of the run write operators' rows too (the ops API's, the CLI's): this one is found by its target.
    expect(entries.find((e) => e.target === `merchant:${a.merchant.id}`)).toEqual({
      id: expect.any(String),
      operatorUserId: operator.userId,
      actor: null,
      operatorEmail: operator.email,
      action: 'merchant.deactivate',
      target: `merchant:${a.merchant.id}`,
      details: { changes: { isActive: { from: true, to: false } } },
      logId: expect.any(String),
      at: expect.any(String),
    });
    expect(entries.filter((e) => e.operatorUserId === userA.userId || e.operatorUserId === userB.userId)).toEqual([]);
    // No sign-in (operators' are not written) and none of these merchants' users' tokens: those rows belong
    // to the merchant's activity. (Operators issue tokens too, from the console: other suites' merchants.)
    const mine = [`merchant:${a.merchant.id}`, `merchant:${b.merchant.id}`];
    expect(
      entries.filter(
        (e) => e.action.startsWith('session.') || (e.action.startsWith('token.') && mine.includes(e.target)),
      ),
    ).toEqual([]);
    expect(
      (
        await request(internal)
          .get('/console/api/audit-log')
          .query({ operatorUserId: userA.userId })
          .set(operator.headers)
      ).body.data.entries,
    ).toEqual([]);
    // The operator's sign-in and the deactivation are not the merchant's activity.
    expect((await rowsOf(a.merchant.id)).map((r) => r.action)).toEqual(['session.sign-in', 'token.create']);
    expect(
      (
        await gateway.prisma.$queryRawUnsafe<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM operator_audit_log WHERE operator_user_id = $1 AND action LIKE $2',
          operator.userId,
          'session.%',
        )
      )[0].n,
    ).toBe(0);
  });
});
