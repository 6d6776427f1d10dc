import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { loadConfig } from '@pay/platform';
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
import { createGatewayApp, type GatewayApp } from './gateway.app';
import { gatewayConfigSchema } from './gateway.config';

const ADMIN_TOKEN = 'adm_harden_0123456789abcdef0123456789abcdef';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const codeOf = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
/** A base32 secret of 160 bits, as totp/setup makes. */
const newSecret = () => new Secret({ size: 20 }).base32;

/**
 * What an attacker with a session, a seen TOTP code or a cached page could do, and what stops it
 * (decision 0023, "Hardening"): the merchant's rate limits on the dashboard, single-use TOTP
 * codes, disabling users, no-store answers.
 */
describe('dashboard and console hardening (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        // Its own rate-limit keys: merchant ids start again at 1 in every run's fresh database.
        QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX ?? 't:'}${randomUUID().slice(0, 8)}:bull`,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
        RATE_LIMIT_REFUSAL_DELAY_MS: '0',
        // The limiter fails open when Redis answers slower than this; a busy test machine needs more than the 100 ms default.
        RATE_LIMIT_REDIS_TIMEOUT_MS: '2000',
        SANDBOX_MODE: 'true',
        ADMIN_TOKEN,
        SIGN_IN_PER_ADDRESS_PER_MINUTE: '100000',
      }),
    );
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
    prisma = gateway.prisma;
  });
  afterAll(() => gateway?.close());

  const dash = (s: DashboardSignIn) => ({
    get: (p: string) => request(pub).get(`/dashboard/api${p}`).set('cookie', s.cookie),
    post: (p: string, body: object = {}) => request(pub).post(`/dashboard/api${p}`).set(s.headers).send(body),
  });
  const sessionRows = (userId: number) =>
    prisma.$queryRaw<
      { revoked_at: Date | null }[]
    >`SELECT revoked_at FROM dashboard_sessions WHERE user_id = ${userId}`;

  describe("the merchant's rate limits apply to its dashboard", () => {
    // A refused request is refused before validation, and an invalid one is still charged (as on the API): an
    // invalid body is a fast way to spend the budget, where a pay-in create can take longer than a slot lasts.
    it('a pay-in create beyond the write limit is 429 RATE_LIMITED with Retry-After, and makes no pay-in', async () => {
      const { merchant } = await createMerchant(prisma);
      await new MerchantAdmin(prisma).setRateLimits(merchant.id, { write: 1 });
      const api = dash(await signedInMerchantUser(prisma, pub, merchant.id));
      const first = await api.post('/payins', { amount: 'lots' });
      expect(first.status).toBe(400);
      expect(first.headers).toMatchObject({
        'ratelimit-limit': '1',
        'ratelimit-remaining': '0',
        'ratelimit-policy': '1;w=1',
      });
      const refused = await api.post('/payins', { merchantTrxId: 'DASH-RL-1', amount: 10000 });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: false, code: 'RATE_LIMITED' });
      expect(refused.headers).toMatchObject({ 'retry-after': '1', 'ratelimit-remaining': '0' });
      expect(await prisma.payin.count({ where: { merchantId: merchant.id } })).toBe(0);
      // Over the limit, an invalid body is a 429 too, not a 400.
      expect((await api.post('/payins', { amount: 'lots' })).status).toBe(429);
      await new Promise((r) => setTimeout(r, 1_100));
      const created = await api.post('/payins', { merchantTrxId: 'DASH-RL-2', amount: 10000 });
      expect(created.status).toBe(201);
      expect(created.headers['ratelimit-remaining']).toBe('0');
      expect(await prisma.payin.count({ where: { merchantId: merchant.id } })).toBe(1);
    });

    it("shares one budget per merchant and class with the merchant's API tokens, both ways", async () => {
      const { merchant, token } = await createMerchant(prisma);
      await new MerchantAdmin(prisma).setRateLimits(merchant.id, { write: 1 });
      const api = dash(await signedInMerchantUser(prisma, pub, merchant.id));
      const generate = (body: object) =>
        request(pub).post('/api/v1/payin/qris/generate').set('token', token).send(body);
      expect((await generate({ amount: 'lots' })).status).toBe(400);
      expect((await api.post('/payins', { merchantTrxId: 'DASH-SHARED', amount: 10000 })).status).toBe(429);
      expect(await prisma.payin.count({ where: { merchantId: merchant.id, merchantTrxId: 'DASH-SHARED' } })).toBe(0);

      // And the other way round, once the bucket is full again: the dashboard spends it, the token is refused.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await api.post('/payins', { amount: 'lots' })).status).toBe(400);
      const refused = await generate({ merchantTrxId: 'API-AFTER', amount: 10000 });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(await prisma.payin.count({ where: { merchantId: merchant.id, merchantTrxId: 'API-AFTER' } })).toBe(0);
    });

    it('charges every read route to the read class and every write route to the write class (their RateLimit-Policy says which)', async () => {
      const { merchant } = await createMerchant(prisma);
      await new MerchantAdmin(prisma).setRateLimits(merchant.id, { read: 500, write: 40 });
      const user = await signedInMerchantUser(prisma, pub, merchant.id);
      const api = dash(user);
      const reads = [
        '/overview',
        '/payins',
        '/payins/NOPE',
        '/payouts',
        '/payouts/NOPE',
        `/recon/${randomUUID()}`,
        '/developers',
        '/deliveries',
      ];
      for (const path of reads) {
        const res = await api.get(path);
        expect([path, res.headers['ratelimit-policy']]).toEqual([path, '500;w=1']);
      }
      const writes: [string, request.Test][] = [
        ['POST /payins', api.post('/payins', { amount: 10000 })],
        ['POST /payins/:id/simulate', api.post('/payins/NOPE/simulate')],
        ['POST /payouts/:id/callback/resend', api.post('/payouts/NOPE/callback/resend')],
        ['POST /tokens', api.post('/tokens', { label: 'policy' })],
        ['DELETE /tokens/:id', request(pub).delete(`/dashboard/api/tokens/${randomUUID()}`).set(user.headers)],
        ['POST /webhook-secret/rotate', api.post('/webhook-secret/rotate')],
        ['PUT /callback-url', request(pub).put('/dashboard/api/callback-url').set(user.headers).send({ url: null })],
        ['PUT /allowlist', request(pub).put('/dashboard/api/allowlist').set(user.headers).send({ entries: [] })],
        ['POST /totp/setup', api.post('/totp/setup')],
      ];
      for (const [name, req] of writes) {
        const res = await req;
        expect([name, res.status < 500, res.headers['ratelimit-policy']]).toEqual([name, true, '40;w=1']);
      }
      // Who-am-I, sign-in and sign-out spend nothing: the web app must tell signed-in from signed-out whatever the budget.
      expect((await api.get('/session')).headers['ratelimit-policy']).toBeUndefined();
    });

    it('a read beyond the read limit is 429 RATE_LIMITED, whichever route spent it', async () => {
      const { merchant } = await createMerchant(prisma);
      await new MerchantAdmin(prisma).setRateLimits(merchant.id, { read: 1 });
      const api = dash(await signedInMerchantUser(prisma, pub, merchant.id));
      expect((await api.get('/overview')).status).toBe(200);
      const refused = await api.get('/payins');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(refused.headers['retry-after']).toBe('1');
      // Another merchant's budget is its own.
      const other = await createMerchant(prisma);
      expect((await dash(await signedInMerchantUser(prisma, pub, other.merchant.id)).get('/payins')).status).toBe(200);
    });

    it('operators are not limited (they spend no merchant budget)', async () => {
      const operator = await signedInOperator(prisma, internal);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => request(internal).get('/console/api/session').set('cookie', operator.cookie)),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers[0].headers['ratelimit-limit']).toBeUndefined();
    });
  });

  describe('TOTP codes are single-use', () => {
    const signIn = (user: { email: string; password: string }, totp: string) =>
      request(pub).post('/dashboard/api/session').send({ email: user.email, password: user.password, totp });

    it('refuses a code already used to sign in, and a code of an earlier step; a later code works', async () => {
      const { merchant } = await createMerchant(prisma);
      const secret = newSecret();
      const user = await createDashboardUser(prisma, { merchantId: merchant.id, totpSecret: secret });
      const code = codeOf(secret);
      expect((await signIn(user, code)).status).toBe(200);
      const replay = await signIn(user, code);
      expect(replay.status).toBe(401);
      expect(replay.body.code).toBe('SIGN_IN_FAILED');
      expect(replay.headers['set-cookie']).toBeUndefined();
      // The next step's code (accepted within ±1 step) moves the mark on; the previous step's is then refused.
      expect((await signIn(user, codeOf(secret, Date.now() + 30_000))).status).toBe(200);
      const previous = codeOf(secret, Date.now() - 30_000);
      if (previous !== code) expect((await signIn(user, previous)).status).toBe(401);
      expect(await sessionRows(user.userId)).toHaveLength(2);
    });

    it('of two sign-ins sent at once with one code, exactly one gets a session', async () => {
      const { merchant } = await createMerchant(prisma);
      const secret = newSecret();
      const user = await createDashboardUser(prisma, { merchantId: merchant.id, totpSecret: secret });
      const code = codeOf(secret);
      const answers = await Promise.all([signIn(user, code), signIn(user, code), signIn(user, code)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401]);
      expect(await sessionRows(user.userId)).toHaveLength(1);
    });

    it('the code that turned TOTP on does not sign in; a code used to sign in does not turn TOTP off', async () => {
      const { merchant } = await createMerchant(prisma);
      const user = await signedInMerchantUser(prisma, pub, merchant.id);
      const api = dash(user);
      const { secret } = (await api.post('/totp/setup')).body.data as { secret: string };
      const enableCode = codeOf(secret);
      expect((await api.post('/totp/enable', { code: enableCode })).status).toBe(200);
      expect((await signIn(user, enableCode)).body.code).toBe('SIGN_IN_FAILED');

      const next = codeOf(secret, Date.now() + 30_000);
      const session = await signIn(user, next);
      expect(session.status).toBe(200);
      const off = await api.post('/totp/disable', { code: next });
      expect(off.status).toBe(400);
      expect(off.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'code' }] });
      const [row] = await prisma.$queryRaw<
        { totp_enabled_at: Date | null }[]
      >`SELECT totp_enabled_at FROM dashboard_users WHERE id = ${user.userId}`;
      expect(row.totp_enabled_at).not.toBeNull();
    });

    it('wrong codes on totp/disable count towards the lockout: a stolen session cannot guess its way past the second factor', async () => {
      const { merchant } = await createMerchant(prisma);
      const secret = newSecret();
      const user = await createDashboardUser(prisma, { merchantId: merchant.id, totpSecret: secret });
      const api = dash(await signInDashboard(pub, user, codeOf(secret)));
      const wrong =
        codeOf(secret, Date.now() - 10 * 60_000) === codeOf(secret)
          ? '123456'
          : codeOf(secret, Date.now() - 10 * 60_000);
      for (let i = 0; i < 4; i++)
        expect((await api.post('/totp/disable', { code: wrong })).body.code).toBe('VALIDATION_ERROR');
      const fifth = await api.post('/totp/disable', { code: wrong });
      expect(fifth.status).toBe(423);
      expect(fifth.body.code).toBe('ACCOUNT_LOCKED');
      expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // Locked: even the right (unused) code does not turn it off.
      const right = await api.post('/totp/disable', { code: codeOf(secret, Date.now() + 30_000) });
      expect(right.status).toBe(423);
      const [row] = await prisma.$queryRaw<
        { totp_enabled_at: Date | null }[]
      >`SELECT totp_enabled_at FROM dashboard_users WHERE id = ${user.userId}`;
      expect(row.totp_enabled_at).not.toBeNull();
      // The owner, with the password and a fresh code, signs in, and that ends the lock.
      expect((await signIn(user, codeOf(secret, Date.now() + 30_000))).status).toBe(200);
      const [after] = await prisma.$queryRaw<
        { locked_until: Date | null; failed_sign_ins: number }[]
      >`SELECT locked_until, failed_sign_ins FROM dashboard_users WHERE id = ${user.userId}`;
      expect(after).toEqual({ locked_until: null, failed_sign_ins: 0 });
    });
  });

  it("turning TOTP on or off ends the user's other sessions, not the one that did it", async () => {
    const { merchant } = await createMerchant(prisma);
    const user = await signedInMerchantUser(prisma, pub, merchant.id);
    const stolen = await signInDashboard(pub, user);
    const api = dash(user);
    const { secret } = (await api.post('/totp/setup')).body.data as { secret: string };
    expect((await api.post('/totp/enable', { code: codeOf(secret, Date.now() - 30_000) })).status).toBe(200);
    expect((await dash(stolen).get('/overview')).body.code).toBe('SESSION_REQUIRED');
    expect((await api.get('/overview')).status).toBe(200);

    const other = await signInDashboard(pub, user, codeOf(secret));
    expect((await api.post('/totp/disable', { code: codeOf(secret, Date.now() + 30_000) })).status).toBe(200);
    expect((await dash(other).get('/overview')).body.code).toBe('SESSION_REQUIRED');
    expect((await api.get('/overview')).status).toBe(200);
  });

  describe('disabling users', () => {
    it('ops API: disable ends the sessions at once and sign-in fails; enable lets the user sign in again (old sessions stay ended)', async () => {
      const { merchant } = await createMerchant(prisma);
      // Another owner stays: a merchant's last enabled owner cannot be disabled (docs/access.md).
      await createDashboardUser(prisma, { merchantId: merchant.id });
      const user = await signedInMerchantUser(prisma, pub, merchant.id);
      const link = await request(internal).post(`/ops/dashboard-users/${user.userId}/reset-link`).set(admin);
      expect(link.status).toBe(200);

      const off = await request(internal).post(`/ops/dashboard-users/${user.userId}/disable`).set(admin);
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({
        status: true,
        message: 'Dashboard user disabled',
        data: { userId: user.userId, email: user.email, disabled: true },
      });
      expect((await dash(user).get('/overview')).body.code).toBe('SESSION_REQUIRED');
      expect((await sessionRows(user.userId)).every((s) => s.revoked_at !== null)).toBe(true);
      expect(
        (await request(pub).post('/dashboard/api/session').send({ email: user.email, password: user.password })).body
          .code,
      ).toBe('SIGN_IN_FAILED');
      // Twice is the same.
      expect(
        (await request(internal).post(`/ops/dashboard-users/${user.userId}/disable`).set(admin)).body.data.disabled,
      ).toBe(true);

      const on = await request(internal).post(`/ops/dashboard-users/${user.userId}/enable`).set(admin);
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({
        message: 'Dashboard user enabled',
        data: { userId: user.userId, disabled: false },
      });
      expect((await dash(user).get('/overview')).body.code).toBe('SESSION_REQUIRED');
      // The link made before it was disabled stays used up.
      const token = (link.body.data.setPasswordUrl as string).split('/').pop();
      expect(
        (await request(pub).post('/dashboard/api/password').send({ token, password: 'a brand new password' })).body
          .code,
      ).toBe('SETUP_LINK_INVALID');
      const again = await signInDashboard(pub, user);
      expect((await dash(again).get('/overview')).status).toBe(200);

      for (const id of ['999999999', 'abc']) {
        for (const action of ['disable', 'enable'])
          expect((await request(internal).post(`/ops/dashboard-users/${id}/${action}`).set(admin)).status).toBe(404);
      }
      expect((await request(internal).post(`/ops/dashboard-users/${user.userId}/disable`)).status).toBe(401);
    });

    it('console: lists users, disables another operator (its session ends at once) and a merchant user, each audited; not itself', async () => {
      const { merchant } = await createMerchant(prisma);
      const operator = await signedInOperator(prisma, internal);
      const colleague = await signedInOperator(prisma, internal);
      await createDashboardUser(prisma, { merchantId: merchant.id }); // the owner who stays
      const merchantUser = await signedInMerchantUser(prisma, pub, merchant.id);
      const consolePost = (path: string) =>
        request(internal).post(`/console/api${path}`).set(operator.headers).send({});
      const auditOf = (target: string) =>
        prisma.$queryRaw<
          { operator_user_id: bigint; action: string; log_id: string }[]
        >`SELECT operator_user_id, action, log_id::text FROM operator_audit_log WHERE target = ${target} ORDER BY id`;

      const listed = await request(internal).get('/console/api/users').set('cookie', operator.cookie);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            userId: merchantUser.userId,
            role: 'merchant',
            merchantId: merchant.id,
            disabled: false,
          }),
        ]),
      );
      expect(JSON.stringify(listed.body)).not.toMatch(/argon2|password_hash|totp_secret/);

      const off = await consolePost(`/users/${colleague.userId}/disable`);
      expect(off.status).toBe(200);
      expect(off.body.data).toMatchObject({ userId: colleague.userId, disabled: true });
      expect((await request(internal).get('/console/api/session').set('cookie', colleague.cookie)).body.code).toBe(
        'SESSION_REQUIRED',
      );
      expect(await auditOf(`dashboard-user:${colleague.userId}`)).toEqual([
        { operator_user_id: BigInt(operator.userId), action: 'dashboard-user.disable', log_id: off.body.logId },
      ]);

      expect((await consolePost(`/users/${merchantUser.userId}/disable`)).status).toBe(200);
      expect((await dash(merchantUser).get('/overview')).body.code).toBe('SESSION_REQUIRED');
      const on = await consolePost(`/users/${merchantUser.userId}/enable`);
      expect(on.status).toBe(200);
      expect((await auditOf(`dashboard-user:${merchantUser.userId}`)).map((r) => r.action)).toEqual([
        'dashboard-user.disable',
        'dashboard-user.enable',
      ]);

      // Not itself (409, nothing changed, no audit row); not without the CSRF token; not an unknown user (no audit row).
      const self = await consolePost(`/users/${operator.userId}/disable`);
      expect(self.status).toBe(409);
      expect(self.body.code).toBe('CONFLICT');
      expect((await request(internal).get('/console/api/session').set('cookie', operator.cookie)).status).toBe(200);
      expect(await auditOf(`dashboard-user:${operator.userId}`)).toEqual([]);
      expect(
        (
          await request(internal)
            .post(`/console/api/users/${merchantUser.userId}/disable`)
            .set('cookie', operator.cookie)
            .send({})
        ).status,
      ).toBe(403);
      expect((await consolePost('/users/999999999/disable')).status).toBe(404);
      expect(await auditOf('dashboard-user:999999999')).toEqual([]);
      // A merchant session is not an operator's.
      expect((await request(internal).get('/console/api/users').set('cookie', merchantUser.cookie)).status).toBe(401);
    });
  });

  describe('answers are never cached', () => {
    it('every /dashboard/api and /console/api answer says Cache-Control: no-store, errors included; the merchant API is left alone', async () => {
      const { merchant, token } = await createMerchant(prisma);
      const user = await signedInMerchantUser(prisma, pub, merchant.id);
      const operator = await signedInOperator(prisma, internal);
      const answers: [string, request.Response][] = [
        ['overview', await dash(user).get('/overview')],
        ['new token', await dash(user).post('/tokens', { label: 'cache' })],
        ['no session', await request(pub).get('/dashboard/api/overview')],
        ['unknown route', await request(pub).get('/dashboard/api/no-such-route')],
        [
          'wrong password',
          await request(pub)
            .post('/dashboard/api/session')
            .send({ email: user.email, password: 'wrong password here' }),
        ],
        ['console merchants', await request(internal).get('/console/api/merchants').set('cookie', operator.cookie)],
        ['console no session', await request(internal).get('/console/api/users')],
        // The console on the public port: 404 like an unknown route, still not cacheable.
        ['console on the public port', await request(pub).get('/console/api/session')],
      ];
      expect(answers.map(([, r]) => r.status)).toEqual([200, 201, 401, 404, 401, 200, 401, 404]);
      for (const [name, res] of answers)
        expect([name, res.headers['cache-control'], res.headers['x-content-type-options']]).toEqual([
          name,
          'no-store',
          'nosniff',
        ]);
      const balance = await request(pub).get('/api/v1/payin/balance').set('token', token);
      expect(balance.status).toBe(200);
      expect(balance.headers['cache-control']).not.toBe('no-store');
    });
  });

  it('a sign-in with a session cookie already set ends that session: the old cookie value is not reused', async () => {
    const { merchant } = await createMerchant(prisma);
    const first = await signedInMerchantUser(prisma, pub, merchant.id);
    const second = await request(pub)
      .post('/dashboard/api/session')
      .set('cookie', first.cookie)
      .send({ email: first.email, password: first.password });
    expect(second.status).toBe(200);
    const [row] = await prisma.$queryRaw<
      { revoked_at: Date | null }[]
    >`SELECT revoked_at FROM dashboard_sessions WHERE id_hash = ${sha256(cookieValue(first.cookie))}`;
    expect(row.revoked_at).not.toBeNull();
    expect((await dash(first).get('/overview')).body.code).toBe('SESSION_REQUIRED');
  });
});
