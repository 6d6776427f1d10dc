import { MerchantAdmin } from '@pay/backoffice';
import { createLogger, loadConfig } from '@pay/platform';
import { createDashboardUser, createMerchant, signedInMerchantUser, signedInOperator } from '@pay/testing';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp } from './gateway.app';
import { gatewayConfigSchema } from './gateway.config';

const ADMIN_TOKEN = 'adm_log_0123456789abcdef0123456789abcdef';

/** A GET whose request target goes out exactly as written (a fragment included), with its logId. */
function rawGet(
  server: Server,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; logId: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, logId: res.headers['x-log-id'] as string }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A merchant that sends its token in the query string (?token=) instead of the header must not
 * find it in the gateway's logs: not in the access log, not in the error log.
 */
describe('gateway logs and credentials in the query string (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const config = loadConfig(gatewayConfigSchema, {
      DATABASE_URL: process.env.DATABASE_URL,
      LOG_LEVEL: 'info',
      RATE_LIMIT_REFUSAL_DELAY_MS: '0',
      ADMIN_TOKEN,
      SIGN_IN_PER_ADDRESS_PER_MINUTE: '100000',
    });
    gateway = await createGatewayApp(
      config,
      createLogger('gateway', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) }),
    );
    http = gateway.app.getHttpServer();
  });
  afterAll(() => gateway.close());

  /** The access log is written once the response has gone: wait for the request's line. */
  async function linesOf(logId: string): Promise<Record<string, unknown>[]> {
    for (let i = 0; i < 100 && !lines.some((l) => l.logId === logId && l.msg === 'request'); i++)
      await new Promise((r) => setTimeout(r, 10));
    return lines.filter((l) => l.logId === logId);
  }

  it('redacts ?token= on 200, 401, 404 and 400 answers of merchant routes', async () => {
    const { token } = await createMerchant(gateway.prisma);
    const q = `token=${encodeURIComponent(token)}&secret_key=${encodeURIComponent(token)}&page=2`;
    const cases = [
      { status: 200, req: request(http).get(`/api/v1/payin/balance?${q}`).set('token', token) },
      { status: 401, req: request(http).get(`/api/v1/payin/balance?${q}`) },
      { status: 404, req: request(http).get(`/api/v1/payin/no-such-route?${q}`).set('token', token) },
      {
        status: 400,
        req: request(http).post(`/api/v1/payin/qris/generate?${q}`).set('token', token).send({ amount: 'lots' }),
      },
    ];
    for (const { status, req } of cases) {
      const res = await req;
      expect(res.status).toBe(status);
      const logged = await linesOf(res.headers['x-log-id'] as string);
      expect(logged.map((l) => l.msg)).toContain('request');
      expect(JSON.stringify(logged)).not.toContain(token);
      const access = logged.find((l) => l.msg === 'request');
      expect(access).toMatchObject({
        status,
        path: expect.stringMatching(/^\/api\/v1\/payin\/[a-z/-]+\?token=\[REDACTED\]&secret_key=\[REDACTED\]&page=2$/),
      });
      // 401, 404 and 400 also leave an error-log line from the exception filter, redacted the same way.
      if (status !== 200)
        expect(logged.find((l) => l.msg === 'request refused')).toMatchObject({
          status,
          path: expect.stringContaining('?token=[REDACTED]&'),
        });
    }
  });

  it('masks a merchant token anywhere in a logged URL: a path segment, a bare query key, a query value, a fragment, percent-encoded', async () => {
    const { token } = await createMerchant(gateway.prisma);
    const secret = token.slice('mtk_'.length);
    const masked = 'mtk_[REDACTED]';
    const server = http as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const cases = [
      [`/api/v1/payin/balance/${token}`, `/api/v1/payin/balance/${masked}`],
      [`/${token}`, `/${masked}`],
      [`/api/v1/payin/balance?${token}`, `/api/v1/payin/balance?${masked}`],
      [`/api/v1/payin/balance?${token}=&page=2`, `/api/v1/payin/balance?${masked}=&page=2`],
      [`/api/v1/payin/balance?ref=${token}`, `/api/v1/payin/balance?ref=${masked}`],
      [`/api/v1/payin/balance#${token}`, `/api/v1/payin/balance#${masked}`],
      [`/api/v1/payin/mtk%5F${secret}`, `/api/v1/payin/${masked}`],
      [`/dashboard/api/${token}`, `/dashboard/api/${masked}`],
    ];
    for (const [path, want] of cases) {
      // With the token in its header too (a client that adds it to every request) and without.
      for (const headers of [{ token }, {}] as Record<string, string>[]) {
        const { logId } = await rawGet(server, path, headers);
        const logged = await linesOf(logId);
        expect(logged.find((l) => l.msg === 'request')).toMatchObject({ path: want });
      }
    }
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('never logs what dashboard and console bodies carry: passwords, TOTP secrets and codes, new tokens, webhook secrets, set-password links, session cookies', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const pub = http as Server;
    const internal = gateway.internalServer;
    const user = await signedInMerchantUser(gateway.prisma, pub, merchant.id);
    const operator = await signedInOperator(gateway.prisma, internal);
    const secrets: string[] = [
      user.password,
      user.cookie.split('=')[1],
      user.csrfToken,
      operator.cookie.split('=')[1],
      operator.csrfToken,
    ];
    const logIds: string[] = [];
    const sent = async (req: request.Test) => {
      const res = await req;
      logIds.push(res.headers['x-log-id'] as string);
      return res;
    };
    // Wrong passwords (a typo of the real one is as secret as the real one), right and wrong.
    const typo = `${user.password}!`;
    secrets.push(typo);
    expect(
      (await sent(request(http).post('/dashboard/api/session').send({ email: user.email, password: typo }))).status,
    ).toBe(401);
    expect(
      (await sent(request(http).post('/dashboard/api/session').send({ email: user.email, password: user.password })))
        .status,
    ).toBe(200);
    // A password that breaks the policy (400 naming the field) and a link that is not one.
    const tooShort = 'short-pw-1';
    secrets.push(tooShort);
    expect(
      (
        await sent(
          request(http).post('/dashboard/api/password').send({ token: 'not-a-link-token-at-all', password: tooShort }),
        )
      ).status,
    ).toBe(400);
    // New token, webhook secret, TOTP secret, a wrong and a right code.
    const token = await sent(
      request(http).post('/dashboard/api/tokens').set(user.headers).send({ label: 'log check' }),
    );
    expect(token.status).toBe(201);
    secrets.push(token.body.data.token);
    const rotated = await sent(request(http).post('/dashboard/api/webhook-secret/rotate').set(user.headers).send({}));
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.data.secret);
    const setup = await sent(request(http).post('/dashboard/api/totp/setup').set(user.headers).send({}));
    secrets.push(setup.body.data.secret);
    expect(
      (await sent(request(http).post('/dashboard/api/totp/enable').set(user.headers).send({ code: 'abcdef' }))).status,
    ).toBe(400);
    // The console: a merchant user's set-password link, a merchant's first token and webhook secret.
    const created = await sent(
      request(internal)
        .post(`/console/api/merchants/${merchant.id}/users`)
        .set(operator.headers)
        .send({ email: `log-${Date.now()}@toko.example` }),
    );
    expect(created.status).toBe(201);
    secrets.push(created.body.data.setPasswordUrl.split('/').pop());
    const onboarded = await sent(
      request(internal).post('/console/api/merchants').set(operator.headers).send({ name: 'Toko Log' }),
    );
    expect(onboarded.status).toBe(201);
    secrets.push(
      ...Object.values(onboarded.body.data as Record<string, unknown>).filter(
        (v): v is string => typeof v === 'string' && v.length >= 32,
      ),
    );
    // An operator with a known password too.
    const other = await createDashboardUser(gateway.prisma, { password: 'console operator password 1' });
    secrets.push(other.password);
    expect(
      (
        await sent(
          request(internal).post('/console/api/session').send({ email: other.email, password: other.password }),
        )
      ).status,
    ).toBe(200);

    const logged = (await Promise.all(logIds.map((id) => linesOf(id)))).flat();
    expect(logged.filter((l) => l.msg === 'request')).toHaveLength(logIds.length);
    const text = JSON.stringify(lines);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(8);
      expect(text).not.toContain(secret);
    }
  });

  it('logs one 429 a second, with the number left out, and no error-log line per 429', async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    await new MerchantAdmin(gateway.prisma).setRateLimits(merchant.id, { read: 1 });
    const balance = () => request(http).get('/api/v1/payin/balance').set('token', token);
    const statuses = [];
    for (let n = 0; n < 20; n++) statuses.push((await balance()).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(19);
    await new Promise((r) => setTimeout(r, 1_100));
    // The bucket has refilled: one request is served, the next refused and logged with the count of those left out.
    const [served, refused] = [await balance(), await balance()];
    expect([served.status, refused.status]).toEqual([200, 429]);
    const last = await linesOf(refused.headers['x-log-id'] as string);
    expect(last.find((l) => l.msg === 'request')).toMatchObject({
      status: 429,
      rateLimitedNotLogged: expect.any(Number),
    });

    const limited = lines.filter((l) => l.status === 429);
    expect(limited.every((l) => l.msg === 'request')).toBe(true);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited.length).toBeLessThanOrEqual(3);
    expect(limited.reduce((n, l) => n + 1 + (l.rateLimitedNotLogged as number), 0)).toBe(20);
  });
});
