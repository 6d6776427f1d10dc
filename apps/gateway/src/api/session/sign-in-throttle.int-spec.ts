import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createDashboardUser, createMerchant } from '@pay/testing';
import { Secret, TOTP } from 'otpauth';
import request from 'supertest';
import { freshAddress, metricValue, shapeOf, signInFrom, sleep } from '../../testing/sign-in-attempts';
import { createLogger, loadConfig } from '@pay/platform';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema, startTestGateway } from '../../testing/test-gateway';

const DASHBOARD = '/dashboard/api/session';
const codeOf = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
const unknownEmail = () => `nobody-${randomUUID()}@test.example`;

/**
 * Issue 39 item 5: a merchant user's email cannot be told from an unknown one (status, body,
 * headers, hashing work), and failed sign-ins slow the guesser down without locking the user out:
 * per account and address with a backoff, per account across addresses for addresses the user
 * has not signed in from (decision 0023).
 */
describe('sign-in throttling: no enumeration, no lockout lever (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let pub: Server;

  beforeAll(async () => {
    gateway = await startTestGateway({ TRUSTED_PROXIES: 'loopback', RATE_LIMIT_REFUSAL_DELAY_MS: '0' });
    pub = gateway.app.getHttpServer();
  });
  afterAll(() => gateway?.close());

  const merchantUser = async (totpSecret?: string) => {
    const { merchant } = await createMerchant(gateway.prisma);
    const { email, password, userId } = await createDashboardUser(gateway.prisma, {
      merchantId: merchant.id,
      totpSecret,
    });
    return { email, password, userId, totpSecret };
  };
  const credentials = (user: { email: string; password: string }) => ({ email: user.email, password: user.password });
  const verifications = async () =>
    metricValue((await request(gateway.internalServer).get('/metrics')).text, 'password_hashing_total', {
      operation: 'verify',
    });

  it("a user's email and an unknown one answer alike, attempt after attempt: status, body and headers", async () => {
    const user = await merchantUser();
    const unknown = unknownEmail();
    const [a, b] = [freshAddress(), freshAddress()];
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i += 1) {
      const password = `wrong password ${i}`;
      const [real, none] = await Promise.all([
        signInFrom(pub, DASHBOARD, a, { email: user.email, password }),
        signInFrom(pub, DASHBOARD, b, { email: unknown, password }),
      ]);
      expect({ attempt: i, ...shapeOf(real) }).toEqual({ attempt: i, ...shapeOf(none) });
      statuses.push(real.status);
    }
    // Five wrong answers, then both wait: the same 429 with the same Retry-After, never a 423.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('a user, an unknown email, a user without a password and another audience cost one argon2 verification each', async () => {
    const user = await merchantUser();
    const noPassword = await merchantUser();
    await gateway.prisma.$executeRaw`UPDATE dashboard_users SET password_hash = NULL WHERE id = ${noPassword.userId}`;
    const operator = await createDashboardUser(gateway.prisma);
    for (const email of [user.email, unknownEmail(), noPassword.email, operator.email]) {
      const before = await verifications();
      const res = await signInFrom(pub, DASHBOARD, freshAddress(), { email, password: 'not the password at all' });
      expect(res.body.code).toBe('SIGN_IN_FAILED');
      expect({ email, verifications: (await verifications()) - before }).toEqual({ email, verifications: 1 });
    }
  });

  it('an attacker at one address cannot keep the user from signing in at another, with TOTP or without', async () => {
    const secret = new Secret({ size: 20 }).base32;
    for (const user of [await merchantUser(), await merchantUser(secret)]) {
      const attacker = freshAddress();
      const answers: number[] = [];
      // Guessing for 2.5 s: the five free failures, then whatever the backoff lets through. At least
      // six guesses, however slow a loaded machine makes each argon2 verification.
      for (const until = Date.now() + 2_500; Date.now() < until || answers.length < 6;) {
        const res = await signInFrom(pub, DASHBOARD, attacker, { email: user.email, password: 'a wrong guess 123' });
        answers.push(res.status);
        if (res.status === 429) await sleep(200);
      }
      // Five guesses, then one after 1 s and one after 2 s more at most: the rest were turned away unchecked.
      expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(answers.filter((s) => s === 401).length).toBeLessThanOrEqual(7);
      expect(answers).toContain(429);
      expect(answers).not.toContain(423);
      // The user, elsewhere, with the right password (and code): signed in.
      const totp = user.totpSecret ? codeOf(user.totpSecret) : undefined;
      const signedIn = await signInFrom(pub, DASHBOARD, freshAddress(), { ...credentials(user), totp });
      expect(signedIn.status).toBe(200);
    }
  });

  it("the account's backoff slows guessing: 1 s, then 2 s, then 4 s; the right password waits too; a success clears it", async () => {
    const user = await merchantUser();
    const address = freshAddress();
    const attempt = (password: string) => signInFrom(pub, DASHBOARD, address, { email: user.email, password });
    for (let i = 0; i < 5; i += 1) expect((await attempt('wrong wrong wrong')).status).toBe(401);
    for (const waitSeconds of [1, 2, 4]) {
      const refused = await attempt('wrong wrong wrong');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: false, code: 'RATE_LIMITED' });
      expect(refused.headers['retry-after']).toBe(String(waitSeconds));
      // The right password is not even looked at while the address waits.
      expect((await attempt(user.password)).status).toBe(429);
      await sleep(waitSeconds * 1000 + 100);
      if (waitSeconds < 4) expect((await attempt('wrong wrong wrong')).status).toBe(401);
    }
    // After the wait, the right password signs in, and the address's failures are forgotten.
    expect((await attempt(user.password)).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await attempt('wrong wrong wrong')).status).toBe(401);
  }, 30_000);

  it('many addresses together make every new address wait; the address the user signed in from is not held up', async () => {
    const user = await merchantUser();
    const home = freshAddress();
    expect((await signInFrom(pub, DASHBOARD, home, credentials(user))).status).toBe(200);
    // Four addresses, five wrong guesses each: the account's twenty.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const address = freshAddress();
        for (let i = 0; i < 5; i += 1)
          expect(
            (await signInFrom(pub, DASHBOARD, address, { email: user.email, password: 'distributed guess' })).status,
          ).toBe(401);
      }),
    );
    // A fifth address waits, even with the right password; so it would for an unknown email after twenty failures.
    const fresh = await signInFrom(pub, DASHBOARD, freshAddress(), credentials(user));
    expect(fresh.status).toBe(429);
    expect(fresh.headers['retry-after']).toBe('1');
    // Home is not.
    expect((await signInFrom(pub, DASHBOARD, home, credentials(user))).status).toBe(200);
  });

  it('warns when sign-in comes through a proxy TRUSTED_PROXIES does not name (every client would share its budgets)', async () => {
    const lines: { level: number; msg: string }[] = [];
    const untrusting = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
        LOG_LEVEL: 'warn',
        SIGN_IN_PER_ADDRESS_PER_MINUTE: '100000',
      }),
      createLogger('gateway', 'warn', { write: (line: string) => void lines.push(JSON.parse(line)) }),
    );
    try {
      const server = untrusting.app.getHttpServer();
      const body = { email: unknownEmail(), password: 'not the password at all' };
      expect((await request(server).post(DASHBOARD).send(body)).status).toBe(401);
      expect(lines.filter((l) => l.msg.includes('TRUSTED_PROXIES'))).toEqual([]);
      expect((await request(server).post(DASHBOARD).set('x-forwarded-for', '203.0.113.9').send(body)).status).toBe(401);
      expect(lines.filter((l) => l.msg.includes('TRUSTED_PROXIES'))).toHaveLength(1);
    } finally {
      await untrusting.close();
    }
  });

  it('fails closed: without its Redis, sign-in answers 503 with Retry-After and makes no session', async () => {
    const user = await merchantUser();
    const cut = await startTestGateway({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await request(cut.app.getHttpServer()).post(DASHBOARD).send(credentials(user));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: false, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['set-cookie']).toBeUndefined();
      const [sessions] = await gateway.prisma.$queryRaw<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM dashboard_sessions WHERE user_id = ${user.userId}`;
      expect(sessions.n).toBe(0);
    } finally {
      await cut.close();
    }
  }, 30_000);
});
