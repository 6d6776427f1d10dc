import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import {
  createDashboardUser,
  createMerchant,
  signInDashboard,
  signedInMerchantUser,
  signedInOperator,
  TEST_DASHBOARD_PASSWORD,
} from '@pay/testing';
import { Secret, TOTP } from 'otpauth';
import { PERMISSIONS } from '@pay/domain';
import request from 'supertest';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const codeOf = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

describe('dashboard and console sign-in, sessions, CSRF, TOTP and lockout (real Postgres)', () => {
  let gateway: GatewayApp;
  /** The public port: /dashboard/api */
  let pub: Server;
  /** The internal port: /console/api and /ops */
  let internal: Server;

  beforeAll(async () => {
    gateway = await startTestGateway({
      ADMIN_TOKEN,
      DASHBOARD_PUBLIC_URL: 'https://dash.example/dashboard',
      CONSOLE_PUBLIC_URL: 'http://console.internal/console/',
    });
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(() => gateway?.close());

  const userRow = async (userId: number) =>
    (
      await gateway.prisma.$queryRaw<
        {
          failed_sign_ins: number;
          locked_until: Date | null;
          password_hash: string | null;
          totp_enabled_at: Date | null;
        }[]
      >`SELECT * FROM dashboard_users WHERE id = ${userId}`
    )[0];
  const sessionRow = async (cookie: string) =>
    (
      await gateway.prisma.$queryRaw<
        { revoked_at: Date | null; user_id: bigint }[]
      >`SELECT * FROM dashboard_sessions WHERE id_hash = ${sha256(cookieValue(cookie))}`
    )[0];

  describe('set-password links', () => {
    it('creates a merchant user with a link (ops API), sets the password once, refuses the second use, then signs in', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const created = await request(internal)
        .post('/ops/dashboard-users')
        .set(admin)
        .send({ email: ' Finance@Toko.Example ', role: 'merchant', merchantId: merchant.id });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        email: 'finance@toko.example',
        role: 'merchant',
        merchantId: merchant.id,
        setPasswordUrl: expect.stringMatching(
          /^https:\/\/dash\.example\/dashboard\/#\/set-password\/[A-Za-z0-9_-]{43}$/,
        ),
      });
      const token = created.body.data.setPasswordUrl.split('/').pop();
      // Only the hash is stored.
      const [link] = await gateway.prisma.$queryRaw<
        { token_hash: string; expires_at: Date }[]
      >`SELECT * FROM dashboard_password_links WHERE user_id = ${created.body.data.userId}`;
      expect(link.token_hash).toBe(sha256(token));
      expect(link.expires_at.getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);

      // Not yet: no password.
      expect(
        (
          await request(pub)
            .post('/dashboard/api/session')
            .send({ email: 'finance@toko.example', password: 'whatever password' })
        ).body.code,
      ).toBe('SIGN_IN_FAILED');
      const short = await request(pub).post('/dashboard/api/password').send({ token, password: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.code).toBe('VALIDATION_ERROR');
      // A merchant user's link does not work on the console.
      expect(
        (await request(internal).post('/console/api/password').send({ token, password: 'a long enough password' })).body
          .code,
      ).toBe('SETUP_LINK_INVALID');

      const set = await request(pub)
        .post('/dashboard/api/password')
        .send({ token, password: 'a long enough password' });
      expect(set.status).toBe(200);
      expect((await userRow(created.body.data.userId)).password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const again = await request(pub)
        .post('/dashboard/api/password')
        .send({ token, password: 'another long password' });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ status: false, code: 'SETUP_LINK_INVALID' });

      const signedIn = await request(pub)
        .post('/dashboard/api/session')
        .send({ email: 'FINANCE@toko.example', password: 'a long enough password' });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data).toMatchObject({
        user: { id: created.body.data.userId, email: 'finance@toko.example', role: 'merchant', totpEnabled: false },
        merchant: { id: merchant.id, name: merchant.name },
        sandbox: true,
      });

      // A reset link replaces the unused ones; an unknown token is refused.
      const reset = await request(internal)
        .post(`/ops/dashboard-users/${created.body.data.userId}/reset-link`)
        .set(admin);
      expect(reset.status).toBe(200);
      expect(
        (
          await request(pub)
            .post('/dashboard/api/password')
            .send({ token: 'x'.repeat(43), password: 'a long enough password' })
        ).body.code,
      ).toBe('SETUP_LINK_INVALID');
      expect(
        (
          await request(internal)
            .post('/ops/dashboard-users')
            .set(admin)
            .send({ email: 'finance@toko.example', role: 'merchant', merchantId: merchant.id })
        ).status,
      ).toBe(409);
    });

    it('an operator link points at the console and is refused by the dashboard', async () => {
      const created = await request(internal)
        .post('/ops/dashboard-users')
        .set(admin)
        .send({ email: `ops-${Date.now()}@pay.example`, role: 'operator' });
      expect(created.status).toBe(201);
      expect(created.body.data.setPasswordUrl).toMatch(/^http:\/\/console\.internal\/console\/#\/set-password\//);
      const token = created.body.data.setPasswordUrl.split('/').pop();
      expect(
        (await request(pub).post('/dashboard/api/password').send({ token, password: 'a long enough password' })).body
          .code,
      ).toBe('SETUP_LINK_INVALID');
      expect(
        (await request(internal).post('/console/api/password').send({ token, password: 'a long enough password' }))
          .status,
      ).toBe(200);
      expect(
        (
          await request(internal)
            .post('/ops/dashboard-users')
            .set(admin)
            .send({ email: 'x@pay.example', role: 'operator', merchantId: 1 })
        ).status,
      ).toBe(400);
      expect(
        (
          await request(internal)
            .post('/ops/dashboard-users')
            .set(admin)
            .send({ email: 'y@pay.example', role: 'merchant' })
        ).status,
      ).toBe(400);
      expect(
        (
          await request(internal)
            .post('/ops/dashboard-users')
            .set(admin)
            .send({ email: 'z@pay.example', role: 'merchant', merchantId: 2_000_000_000 })
        ).status,
      ).toBe(404);
      expect((await request(internal).post('/ops/dashboard-users/abc/unlock').set(admin)).status).toBe(404);
      expect(
        (await request(internal).post('/ops/dashboard-users').send({ email: 'w@pay.example', role: 'operator' }))
          .status,
      ).toBe(401);
    });
  });

  describe('sign-in', () => {
    it('sets an HttpOnly, Secure, SameSite=Strict cookie on the dashboard path and answers the session', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
      const res = await request(pub)
        .post('/dashboard/api/session')
        .send({ email: user.email, password: user.password });
      expect(res.status).toBe(200);
      const [cookie] = res.headers['set-cookie'] as unknown as string[];
      expect(cookie).toMatch(
        /^pay_dash_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; Secure; SameSite=Strict$/,
      );
      expect(res.body.data.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Only the hash of the cookie value is stored.
      expect(Number((await sessionRow(cookie.split(';')[0])).user_id)).toBe(user.userId);

      const me = await request(pub).get('/dashboard/api/session').set('cookie', cookie.split(';')[0]);
      expect(me.status).toBe(200);
      expect(me.body.data).toEqual({
        // An owner (a merchant user created without a role): every permission of docs/access.md.
        user: {
          id: user.userId,
          email: user.email,
          role: 'merchant',
          totpEnabled: false,
          merchantRole: 'owner',
          permissions: [...PERMISSIONS],
        },
        merchant: { id: merchant.id, name: merchant.name },
        csrfToken: res.body.data.csrfToken,
        sandbox: true,
      });
    });

    it('operators sign in on the console (internal port only) with pay_console_session on /console', async () => {
      const operator = await createDashboardUser(gateway.prisma);
      const res = await request(internal)
        .post('/console/api/session')
        .send({ email: operator.email, password: operator.password });
      expect(res.status).toBe(200);
      expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(
        /^pay_console_session=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; Secure; SameSite=Strict$/,
      );
      expect(res.body.data).toMatchObject({ user: { role: 'operator' }, merchant: null });
      // The console does not exist on the public port.
      expect(
        (await request(pub).post('/console/api/session').send({ email: operator.email, password: operator.password }))
          .status,
      ).toBe(404);
    });

    it('a wrong password and an unknown email get the same answer', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
      const wrong = await request(pub)
        .post('/dashboard/api/session')
        .send({ email: user.email, password: 'not the password at all' });
      const unknown = await request(pub)
        .post('/dashboard/api/session')
        .send({ email: 'nobody@nowhere.example', password: 'not the password at all' });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          status: false,
          code: 'SIGN_IN_FAILED',
          message: 'Email or password is wrong',
        });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      // Sign-in failures are counted by the throttle (per address and account), not on the user's row.
      expect((await userRow(user.userId)).failed_sign_ins).toBe(0);
      // The right password of a merchant user on the console is a wrong sign-in there.
      expect(
        (await request(internal).post('/console/api/session').send({ email: user.email, password: user.password })).body
          .code,
      ).toBe('SIGN_IN_FAILED');
    });

    it('after 5 consecutive failures the next attempt from that address waits (429 with Retry-After, even with the right password); nothing is locked', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
      const attempt = (password: string) =>
        request(pub).post('/dashboard/api/session').send({ email: user.email, password });
      for (let i = 0; i < 5; i++) expect((await attempt('wrong password number')).status).toBe(401);
      const right = await attempt(user.password);
      expect(right.status).toBe(429);
      expect(right.body).toMatchObject({ status: false, code: 'RATE_LIMITED' });
      expect(right.headers['retry-after']).toBe('1');
      expect(await userRow(user.userId)).toMatchObject({ failed_sign_ins: 0, locked_until: null });
      // The wait is a second; then the right password signs in.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await attempt(user.password)).status).toBe(200);
    });

    it('a success in between starts the failure count again', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
      const attempt = (password: string) =>
        request(pub).post('/dashboard/api/session').send({ email: user.email, password });
      for (let i = 0; i < 4; i++) await attempt('wrong password number');
      expect((await attempt(user.password)).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await attempt('wrong password number')).status).toBe(401);
    });
  });

  describe('TOTP', () => {
    it('enrols with a code, then sign-in needs it: none is TOTP_REQUIRED, a wrong one SIGN_IN_FAILED, the right one signs in', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      const setup = await request(pub).post('/dashboard/api/totp/setup').set(user.headers);
      expect(setup.status).toBe(200);
      expect(setup.body.data).toMatchObject({
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        url: expect.stringMatching(/^otpauth:\/\/totp\//),
        qr: expect.stringMatching(/^data:image\/png;base64,/),
      });
      const { secret } = setup.body.data;
      // Not in force until confirmed.
      expect((await signInDashboard(pub, user)).csrfToken).toBeTruthy();
      expect(
        (
          await request(pub)
            .post('/dashboard/api/totp/enable')
            .set(user.headers)
            .send({ code: '000000' === codeOf(secret) ? '111111' : '000000' })
        ).status,
      ).toBe(400);
      // Each code is used once (the step before, this one, the step after: all accepted, ±1 step), so each step gets its own.
      const enabled = await request(pub)
        .post('/dashboard/api/totp/enable')
        .set(user.headers)
        .send({ code: codeOf(secret, Date.now() - 30_000) });
      expect(enabled.status).toBe(200);
      expect((await userRow(user.userId)).totp_enabled_at).not.toBeNull();
      expect((await request(pub).post('/dashboard/api/totp/setup').set(user.headers)).status).toBe(409);

      const signIn = (totp?: string) =>
        request(pub)
          .post('/dashboard/api/session')
          .send({ email: user.email, password: user.password, ...(totp === undefined ? {} : { totp }) });
      const none = await signIn();
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('TOTP_REQUIRED');
      const wrongCode = codeOf(secret, Date.now() - 10 * 60_000);
      const wrong = await signIn(wrongCode === codeOf(secret) ? '123456' : wrongCode);
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('SIGN_IN_FAILED');
      const ok = await signIn(codeOf(secret));
      expect(ok.status).toBe(200);
      expect(ok.body.data.user.totpEnabled).toBe(true);

      const disabled = await request(pub)
        .post('/dashboard/api/totp/disable')
        .set(user.headers)
        .send({ code: codeOf(secret, Date.now() + 30_000) });
      expect(disabled.status).toBe(200);
      expect((await signIn()).status).toBe(200);
    });
  });

  describe('the session guards', () => {
    it('refuses a state-changing request without the CSRF token, with a wrong one, or from a foreign Origin', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      const setup = () => request(pub).post('/dashboard/api/totp/setup').set('cookie', user.cookie);
      for (const res of [
        await setup(),
        await setup().set('x-csrf-token', 'wrong'),
        await setup().set('x-csrf-token', `${user.csrfToken}x`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: false, code: 'CSRF_TOKEN_INVALID' });
      }
      const foreign = await request(pub)
        .get('/dashboard/api/session')
        .set('cookie', user.cookie)
        .set('origin', 'https://evil.example');
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('CSRF_TOKEN_INVALID');
      expect(
        (
          await request(pub)
            .post('/dashboard/api/session')
            .set('origin', 'https://evil.example')
            .send({ email: user.email, password: user.password })
        ).status,
      ).toBe(403);
      // Its own origin is fine; a GET needs no token.
      const own = await request(pub)
        .get('/dashboard/api/session')
        .set('cookie', user.cookie)
        .set('host', 'dash.example')
        .set('origin', 'http://dash.example');
      expect(own.status).toBe(200);
      expect((await setup().set('x-csrf-token', user.csrfToken)).status).toBe(200);
    });

    it("the web app's probe answers 200 either way: the session when signed in, null for no cookie, an unknown one or the other audience", async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const merchantUser = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      const operator = await signedInOperator(gateway.prisma, internal);
      const signedOut = [
        await request(pub).get('/dashboard/api/session/probe'),
        await request(pub).get('/dashboard/api/session/probe').set('cookie', 'pay_dash_session=made-up'),
        await request(internal).get('/console/api/session/probe').set('cookie', merchantUser.cookie),
      ];
      for (const res of signedOut) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: true, message: 'Not signed in', data: null });
      }
      const own = await request(pub).get('/dashboard/api/session/probe').set('cookie', merchantUser.cookie);
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ user: { email: merchantUser.email }, merchant: { id: merchant.id } });
      expect(own.body.data.csrfToken).toEqual(expect.any(String));
      const console = await request(internal).get('/console/api/session/probe').set('cookie', operator.cookie);
      expect(console.body.data).toMatchObject({ user: { email: operator.email }, merchant: null });
    });

    it('refuses no cookie, an unknown one, and the other audience', async () => {
      const { merchant } = await createMerchant(gateway.prisma);
      const merchantUser = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      const operator = await signedInOperator(gateway.prisma, internal);
      const refused = [
        await request(pub).get('/dashboard/api/session'),
        await request(pub).get('/dashboard/api/session').set('cookie', 'pay_dash_session=made-up'),
        // An operator's session value under the dashboard's cookie name.
        await request(pub)
          .get('/dashboard/api/session')
          .set('cookie', `pay_dash_session=${cookieValue(operator.cookie)}`),
        await request(internal)
          .get('/console/api/session')
          .set('cookie', `pay_console_session=${cookieValue(merchantUser.cookie)}`),
        // The right value under the other audience's cookie name.
        await request(internal).get('/console/api/session').set('cookie', merchantUser.cookie),
      ];
      for (const res of refused) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ status: false, code: 'SESSION_REQUIRED' });
      }
      expect((await request(internal).get('/console/api/session').set('cookie', operator.cookie)).status).toBe(200);
      // A disabled user's sessions stop working at once; its password no longer signs in.
      await gateway.prisma.$executeRaw`UPDATE dashboard_users SET disabled_at = now() WHERE id = ${operator.userId}`;
      expect((await request(internal).get('/console/api/session').set('cookie', operator.cookie)).body.code).toBe(
        'SESSION_REQUIRED',
      );
      expect(
        (
          await request(internal)
            .post('/console/api/session')
            .send({ email: operator.email, password: operator.password })
        ).body.code,
      ).toBe('SIGN_IN_FAILED');
    });

    it('refuses a session idle for 30 minutes, one past 12 hours, and a deactivated merchant', async () => {
      const { merchant, admin: merchants } = await createMerchant(gateway.prisma);
      const idle = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      const old = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      await gateway.prisma
        .$executeRaw`UPDATE dashboard_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id_hash = ${sha256(cookieValue(idle.cookie))}`;
      await gateway.prisma
        .$executeRaw`UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE id_hash = ${sha256(cookieValue(old.cookie))}`;
      for (const u of [idle, old])
        expect((await request(pub).get('/dashboard/api/session').set('cookie', u.cookie)).body.code).toBe(
          'SESSION_REQUIRED',
        );

      const active = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
      // Seen 29 minutes ago: still alive, and seen again now.
      await gateway.prisma
        .$executeRaw`UPDATE dashboard_sessions SET last_seen_at = now() - interval '29 minutes' WHERE id_hash = ${sha256(cookieValue(active.cookie))}`;
      expect((await request(pub).get('/dashboard/api/session').set('cookie', active.cookie)).status).toBe(200);
      const [touched] = await gateway.prisma.$queryRaw<
        { last_seen_at: Date }[]
      >`SELECT last_seen_at FROM dashboard_sessions WHERE id_hash = ${sha256(cookieValue(active.cookie))}`;
      expect(Date.now() - touched.last_seen_at.getTime()).toBeLessThan(60_000);

      await merchants.setActive(merchant.id, false);
      expect((await request(pub).get('/dashboard/api/session').set('cookie', active.cookie)).body.code).toBe(
        'SESSION_REQUIRED',
      );
      // Its users cannot sign in again either: told why (after the password), with no session made.
      const refused = await request(pub)
        .post('/dashboard/api/session')
        .send({ email: active.email, password: active.password });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('MERCHANT_NOT_ACTIVE');
      expect(refused.headers['set-cookie']).toBeUndefined();
    });

    it('sign-out revokes the session and clears the cookie', async () => {
      const operator = await signedInOperator(gateway.prisma, internal);
      expect((await request(internal).delete('/console/api/session').set('cookie', operator.cookie)).status).toBe(403);
      const out = await request(internal).delete('/console/api/session').set(operator.headers);
      expect(out.status).toBe(200);
      expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(
        /^pay_console_session=; Max-Age=0; Path=\/console; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$|^pay_console_session=;.*Path=\/console/,
      );
      expect((await sessionRow(operator.cookie)).revoked_at).not.toBeNull();
      expect((await request(internal).get('/console/api/session').set('cookie', operator.cookie)).body.code).toBe(
        'SESSION_REQUIRED',
      );
      // The helper's password is the default one.
      expect(operator.password).toBe(TEST_DASHBOARD_PASSWORD);
    });
  });
});
