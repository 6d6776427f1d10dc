import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import {
  createDashboardUser,
  createMerchant,
  type DashboardSignIn,
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

describe('step-up: sensitive dashboard and console actions want the password proved in the last 10 minutes (real Postgres)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;

  beforeAll(async () => {
    gateway = await startTestGateway();
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(() => gateway?.close());

  /** Moves the session's last proof of the password `minutes` back (the session itself stays live). */
  const ageAuthentication = async (signIn: DashboardSignIn, minutes: number) => {
    const at = new Date(Date.now() - minutes * 60_000);
    await gateway.prisma
      .$executeRaw`UPDATE dashboard_sessions SET authenticated_at = ${at} WHERE id_hash = ${sha256(cookieValue(signIn.cookie))}`;
  };
  const tokenCount = async (merchantId: number) =>
    (
      await gateway.prisma.$queryRaw<
        { n: bigint }[]
      >`SELECT count(*) AS n FROM api_tokens WHERE merchant_id = ${merchantId}`
    )[0].n;
  const failures = async (userId: number) =>
    (
      await gateway.prisma.$queryRaw<
        { failed_sign_ins: number }[]
      >`SELECT failed_sign_ins FROM dashboard_users WHERE id = ${userId}`
    )[0].failed_sign_ins;

  it('refuses POST tokens 401 REAUTH_REQUIRED 11 minutes after sign-in (no token made); a wrong password on confirm counts as a failure; the right one lets the retried call through', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    const before = await tokenCount(merchant.id);

    // Fresh from sign-in: allowed.
    expect((await request(pub).post('/dashboard/api/tokens').set(user.headers).send({ label: 'fresh' })).status).toBe(
      201,
    );

    await ageAuthentication(user, 11);
    const stale = await request(pub).post('/dashboard/api/tokens').set(user.headers).send({ label: 'stolen' });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({
      status: false,
      code: 'REAUTH_REQUIRED',
      message: 'Confirm your password to continue',
    });
    expect(await tokenCount(merchant.id)).toBe(before + 1n);
    // The session itself still works for reads; a stale session is not a lost one.
    expect((await request(pub).get('/dashboard/api/developers').set(user.headers)).status).toBe(200);

    const wrong = await request(pub)
      .post('/dashboard/api/session/confirm')
      .set(user.headers)
      .send({ password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('SIGN_IN_FAILED');
    expect(await failures(user.userId)).toBe(1);
    expect(
      (await request(pub).post('/dashboard/api/tokens').set(user.headers).send({ label: 'still no' })).body.code,
    ).toBe('REAUTH_REQUIRED');

    const confirmed = await request(pub)
      .post('/dashboard/api/session/confirm')
      .set(user.headers)
      .send({ password: user.password });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      user: { id: user.userId, totpEnabled: false },
      csrfToken: user.csrfToken,
    });
    expect(await failures(user.userId)).toBe(0);

    const retried = await request(pub).post('/dashboard/api/tokens').set(user.headers).send({ label: 'stolen' });
    expect(retried.status).toBe(201);
    expect(await tokenCount(merchant.id)).toBe(before + 2n);
  });

  it('gates every sensitive merchant action, and no read; 9 minutes is still recent', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    await ageAuthentication(user, 9);
    expect((await request(pub).put('/dashboard/api/callback-url').set(user.headers).send({ url: null })).status).toBe(
      200,
    );

    await ageAuthentication(user, 60);
    const gated: [string, string, object][] = [
      ['post', '/tokens', {}],
      ['delete', '/tokens/00000000-0000-0000-0000-000000000000', {}],
      ['post', '/webhook-secret/rotate', {}],
      ['put', '/callback-url', { url: null }],
      ['put', '/allowlist', { enabled: true, entries: [] }],
      ['post', '/totp/setup', {}],
      ['post', '/totp/enable', { code: '123456' }],
      ['post', '/totp/disable', { code: '123456' }],
    ];
    for (const [method, path, body] of gated) {
      const url = `/dashboard/api${path}`;
      const req =
        method === 'put'
          ? request(pub).put(url)
          : method === 'delete'
            ? request(pub).delete(url)
            : request(pub).post(url);
      const res = await req.set(user.headers).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'REAUTH_REQUIRED']);
    }
    const m = await gateway.prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } });
    expect(m.ipAllowlistEnabled).toBe(false);

    for (const path of ['/session', '/overview', '/payins', '/payouts', '/developers', '/deliveries']) {
      const res = await request(pub).get(`/dashboard/api${path}`).set(user.headers);
      expect([path, res.status]).toEqual([path, 200]);
    }
    // Without the CSRF token the answer is still 403: the step-up is checked last.
    expect((await request(pub).post('/dashboard/api/tokens').set({ cookie: user.cookie }).send({})).status).toBe(403);
  });

  it('wants the TOTP code on confirm once TOTP is on, and a code used once does not confirm again', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const secret = new Secret({ size: 20 }).base32;
    const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id, totpSecret: secret });
    const signIn = await signInDashboard(pub, user, codeOf(secret, Date.now() - 30_000));
    await ageAuthentication(signIn, 11);

    const noCode = await request(pub)
      .post('/dashboard/api/session/confirm')
      .set(signIn.headers)
      .send({ password: user.password });
    expect(noCode.status).toBe(401);
    expect(noCode.body.code).toBe('TOTP_REQUIRED');
    const code = codeOf(secret);
    expect(
      (
        await request(pub)
          .post('/dashboard/api/session/confirm')
          .set(signIn.headers)
          .send({ password: user.password, totp: code })
      ).status,
    ).toBe(200);
    expect((await request(pub).post('/dashboard/api/webhook-secret/rotate').set(signIn.headers).send({})).status).toBe(
      200,
    );

    await ageAuthentication(signIn, 11);
    const replay = await request(pub)
      .post('/dashboard/api/session/confirm')
      .set(signIn.headers)
      .send({ password: user.password, totp: code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('SIGN_IN_FAILED');
    expect(await failures(user.userId)).toBe(1);
  });

  it('confirm needs a session and the CSRF token; five wrong passwords lock the user (423, Retry-After) until it signs in with its password', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    expect(
      (await request(pub).post('/dashboard/api/session/confirm').send({ password: user.password })).body.code,
    ).toBe('SESSION_REQUIRED');
    expect(
      (
        await request(pub)
          .post('/dashboard/api/session/confirm')
          .set({ cookie: user.cookie })
          .send({ password: user.password })
      ).body.code,
    ).toBe('CSRF_TOKEN_INVALID');
    for (let i = 0; i < 4; i += 1)
      expect(
        (
          await request(pub)
            .post('/dashboard/api/session/confirm')
            .set(user.headers)
            .send({ password: 'wrong wrong wrong' })
        ).body.code,
      ).toBe('SIGN_IN_FAILED');
    const locked = await request(pub)
      .post('/dashboard/api/session/confirm')
      .set(user.headers)
      .send({ password: 'wrong wrong wrong' });
    expect(locked.status).toBe(423);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // Locked: the right password does not confirm either.
    expect(
      (await request(pub).post('/dashboard/api/session/confirm').set(user.headers).send({ password: user.password }))
        .status,
    ).toBe(423);
    // Sign-in is not locked (whoever held the session could otherwise lock its owner out), and
    // proving the password there ends the lock: the new session confirms.
    const again = await signInDashboard(pub, user);
    expect(
      (await request(pub).post('/dashboard/api/session/confirm').set(again.headers).send({ password: user.password }))
        .status,
    ).toBe(200);
  });

  it('gates every console change, and no console read; the console has its own confirm', async () => {
    const operator = await signedInOperator(gateway.prisma, internal);
    const { merchant } = await createMerchant(gateway.prisma);
    const other = await createDashboardUser(gateway.prisma);
    await ageAuthentication(operator, 11);
    const gated: [string, string, object][] = [
      ['post', '/console/api/merchants', { name: 'Step-up Toko' }],
      ['post', `/console/api/merchants/${merchant.id}/activate`, {}],
      ['post', `/console/api/merchants/${merchant.id}/deactivate`, {}],
      ['put', `/console/api/merchants/${merchant.id}/fees`, {}],
      ['put', `/console/api/merchants/${merchant.id}/qris-identity`, {}],
      ['put', `/console/api/merchants/${merchant.id}/settlement-schedule`, {}],
      ['post', `/console/api/merchants/${merchant.id}/users`, { email: 'stepup@test.example' }],
      ['post', `/console/api/users/${other.userId}/disable`, {}],
      ['post', `/console/api/users/${other.userId}/enable`, {}],
      ['post', '/console/api/settlements/run', { merchantId: merchant.id }],
      ['post', '/console/api/dead-letters/1/replay', {}],
      ['post', '/console/api/webhook-deliveries/00000000-0000-0000-0000-000000000000/resend', {}],
      ['post', '/console/api/totp/setup', {}],
      ['post', `/console/api/merchants/${merchant.id}/tokens`, { label: 'step-up' }],
      ['delete', `/console/api/tokens/${randomUUID()}`, {}],
      ['get', `/console/api/merchants/${merchant.id}/webhook-secret`, {}],
      ['post', `/console/api/merchants/${merchant.id}/webhook-secret/rotate`, {}],
      ['put', `/console/api/merchants/${merchant.id}/allowlist`, { entries: [], enabled: false }],
      ['put', `/console/api/merchants/${merchant.id}/payin-callback-url`, { url: null }],
      ['put', `/console/api/merchants/${merchant.id}/rate-limits`, { read: 5 }],
    ];
    for (const [method, path, body] of gated) {
      const call = request(internal)[method as 'get' | 'post' | 'put' | 'delete'](path).set(operator.headers);
      const res = await (method === 'get' ? call : call.send(body));
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'REAUTH_REQUIRED']);
    }
    expect(
      (
        await gateway.prisma.$queryRaw<
          { disabled_at: Date | null }[]
        >`SELECT disabled_at FROM dashboard_users WHERE id = ${other.userId}`
      )[0].disabled_at,
    ).toBeNull();
    for (const path of [
      '/session',
      '/merchants',
      `/merchants/${merchant.id}`,
      '/users',
      '/settlements',
      '/dead-letters',
      '/webhook-deliveries',
      '/audit-log',
      `/merchants/${merchant.id}/tokens`,
    ]) {
      const res = await request(internal).get(`/console/api${path}`).set(operator.headers);
      expect([path, res.status]).toEqual([path, 200]);
    }

    // The console's own confirm: the same rules as the dashboard's.
    expect(
      (
        await request(internal)
          .post('/console/api/session/confirm')
          .set(operator.headers)
          .send({ password: 'wrong wrong wrong' })
      ).body.code,
    ).toBe('SIGN_IN_FAILED');
    expect(
      (
        await request(internal)
          .post('/console/api/session/confirm')
          .set(operator.headers)
          .send({ password: operator.password })
      ).status,
    ).toBe(200);
    const disabled = await request(internal)
      .post(`/console/api/users/${other.userId}/disable`)
      .set(operator.headers)
      .send({});
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ userId: other.userId, disabled: true });
  });
});
