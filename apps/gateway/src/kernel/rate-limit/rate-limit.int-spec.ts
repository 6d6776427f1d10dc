import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { QueueName } from '@pay/contracts';
import { type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { createLogger, loadConfig } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import { PrivateRedis } from '@pay/devstack';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Registry } from 'prom-client';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';
import { LEASE_TTL_MS } from './leases';
import { RateLimiter } from './rate-limiter';

const ADMIN_TOKEN = 'adm_rate_0123456789abcdef0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const adminOf = (gateway: GatewayApp) => new MerchantAdmin(gateway.prisma);

/** A day in Asia/Jakarta, `days` before today. */
const daysAgo = (days: number) => new Date(Date.now() + 7 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

describe('per-merchant rate limits (real Redis and Postgres)', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const prefix = `${process.env.TEST_REDIS_PREFIX ?? 't:'}${randomUUID().slice(0, 8)}:bull`;
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    LOG_LEVEL: 'fatal',
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    RECON_EXPORT_MAX_OUTSTANDING: '3',
    ADMIN_TOKEN,
    RATE_LIMIT_REFUSAL_DELAY_MS: '0',
  };
  let gateway: GatewayApp;
  let replica: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let admin: MerchantAdmin;

  beforeAll(async () => {
    gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, env));
    // A second replica of the gateway on the same Redis: the limits are shared, not per process.
    replica = await createGatewayApp(loadConfig(gatewayConfigSchema, env));
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    admin = new MerchantAdmin(prisma);
  });
  afterAll(async () => {
    for (const g of [gateway, replica]) await g.close();
  });

  const generate = (token: string, merchantTrxId: string, on: App = http) =>
    request(on).post('/api/v1/payin/qris/generate').set('token', token).send({ merchantTrxId, amount: 50000 });
  const balance = (token: string, on: App = http) => request(on).get('/api/v1/payin/balance').set('token', token);
  const reconFile = (token: string, date: string) =>
    request(http).post('/api/v1/payin/reconFile').set('token', token).send({ date });

  it('answers every limited-class request with the RateLimit headers of its class', async () => {
    const { token } = await createMerchant(prisma);
    const res = await balance(token);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'ratelimit-limit': '100',
      'ratelimit-remaining': '99',
      'ratelimit-reset': '1',
      'ratelimit-policy': '100;w=1',
    });
    expect(res.headers['retry-after']).toBeUndefined();
    const write = await generate(token, `ORD-${randomUUID().slice(0, 8)}`);
    expect(write.status).toBe(200);
    expect(write.headers).toMatchObject({
      'ratelimit-limit': '50',
      'ratelimit-remaining': '49',
      'ratelimit-policy': '50;w=1',
    });
  });

  it('refuses the request over the merchant limit with 429 RATE_LIMITED, before validation and without touching data; another merchant is unaffected', async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    await admin.setRateLimits(a.merchant.id, { write: 2 });

    for (const n of [1, 2]) expect((await generate(a.token, `ORD-A${n}`)).status).toBe(200);
    const refused = await generate(a.token, 'ORD-A3');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: false,
      message: expect.stringMatching(/^Too many write requests: the limit is 2 per second; retry after 1 s$/),
      code: 'RATE_LIMITED',
    });
    expect(refused.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': '2',
      'ratelimit-remaining': '0',
      'ratelimit-policy': '2;w=1',
    });
    expect(await prisma.payin.count({ where: { merchantId: a.merchant.id, merchantTrxId: 'ORD-A3' } })).toBe(0);
    // Refused before the validation pipe: an invalid body is still a 429, not a 400.
    const invalid = await request(http).post('/api/v1/payin/qris/generate').set('token', a.token).send({ amount: 'x' });
    expect(invalid.status).toBe(429);

    // The default limit (50 per second) for the other merchant, unaffected by the first one's.
    for (let n = 1; n <= 5; n++) expect((await generate(b.token, `ORD-B${n}`)).status).toBe(200);
    expect(await prisma.payin.count({ where: { merchantId: b.merchant.id } })).toBe(5);

    const metrics = await request(gateway.internalServer).get('/metrics');
    expect(metrics.text).toMatch(/http_rate_limited_total\{class="write",service="gateway"\} [1-9]/);

    // A bucket refills: a second later the merchant is served again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await generate(a.token, 'ORD-A4')).status).toBe(200);
  });

  it('charges only requests the merchant is let in with: a refused token (401) or address (403) spends none of the budget and never gets 429', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await admin.setRateLimits(merchant.id, { read: 2 });
    await admin.setAllowlist(merchant.id, ['203.0.113.7'], true);
    for (let n = 0; n < 4; n++)
      expect((await balance(token)).body).toMatchObject({ status: false, code: 'IP_NOT_ALLOWED' });
    for (let n = 0; n < 4; n++)
      expect((await balance(`${token}x`)).body).toMatchObject({ status: false, code: 'TOKEN_NOT_VALID' });
    await admin.setAllowlistEnabled(merchant.id, false);
    // The whole budget is there: two served, the third refused.
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await balance(token)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('shares one budget across gateway replicas (the bucket is in Redis)', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await admin.setRateLimits(merchant.id, { read: 3 });
    const statuses = [];
    for (const on of [http, replica.app.getHttpServer(), http, replica.app.getHttpServer()])
      statuses.push((await balance(token, on)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('refuses a merchant Redis has refused from memory until its Retry-After, before its token is looked up; another merchant is served meanwhile', async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    await admin.setRateLimits(a.merchant.id, { read: 1 });
    expect((await balance(a.token)).status).toBe(200);
    const first = await balance(a.token);
    expect(first.status).toBe(429);

    // Revoked right after the first refusal: a request whose token is looked up in PostgreSQL answers 401.
    const { id: tokenId } = await prisma.apiToken.findFirstOrThrow({ where: { merchantId: a.merchant.id } });
    await admin.revokeToken(tokenId);
    const again = await balance(a.token);
    expect(again.status).toBe(429);
    expect(again.body).toEqual({
      logId: expect.stringMatching(UUID),
      status: false,
      message: 'Too many read requests: the limit is 1 per second; retry after 1 s',
      code: 'RATE_LIMITED',
    });
    expect(again.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': '1',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1',
      'ratelimit-policy': '1;w=1',
    });
    // The connection is kept as after the first refusal (the token check's 401 closes it).
    expect(again.headers.connection).toBe(first.headers.connection);
    expect(again.headers['x-log-id']).toBe(again.body.logId);
    expect((await balance(b.token)).status).toBe(200);
    // The refusal is the read class's: a write with the same token is looked up, and its revocation answers 401.
    expect(
      (await request(http).post('/api/v1/payin/qris/generate').set('token', a.token).send({ amount: 'x' })).status,
    ).toBe(401);

    // Once the refusal has run out the token is looked up again: revoked, so 401, and nothing was ever served with it.
    await sleep(1_050);
    const after = await balance(a.token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('TOKEN_NOT_VALID');
  });

  it("sets a merchant's own limits through the ops API, effective on its next request", async () => {
    const { merchant, token } = await createMerchant(prisma);
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const set = await request(gateway.internalServer)
      .put(`/ops/merchants/${merchant.id}/rate-limits`)
      .set(auth)
      .send({ read: 2 });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ merchantId: merchant.id, rateLimits: { read: 2, write: null, export: null } });
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await balance(token)).status);
    expect(statuses).toEqual([200, 200, 429]);

    expect(
      (
        await request(gateway.internalServer)
          .put(`/ops/merchants/${merchant.id}/rate-limits`)
          .set(auth)
          .send({ read: null })
      ).body.data.rateLimits.read,
    ).toBeNull();
    // A refusal already answered stands until its Retry-After (at most one window / the old limit).
    await sleep(1_000);
    expect((await balance(token)).headers['ratelimit-limit']).toBe('100');
    expect(
      (
        await request(gateway.internalServer)
          .put(`/ops/merchants/${merchant.id}/rate-limits`)
          .set(auth)
          .send({ write: 0 })
      ).status,
    ).toBe(400);
    expect(
      (await request(gateway.internalServer).put('/ops/merchants/987654/rate-limits').set(auth).send({ read: 5 }))
        .status,
    ).toBe(404);
  });

  it('refuses an export of a day before the merchant account was created', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await reconFile(token, '2020-01-01');
    const first = daysAgo(0);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      code: 'VALIDATION_ERROR',
      message: `date: 2020-01-01 is before the merchant account was created (its first day is ${first} in Asia/Jakarta)`,
    });
    expect(await prisma.reconExport.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it("caps one merchant's exports in progress, so its backlog never sits ahead of another merchant's export", async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    await prisma.merchant.updateMany({
      where: { id: { in: [a.merchant.id, b.merchant.id] } },
      data: { createdAt: new Date(Date.now() - 60 * 86_400_000) },
    });

    const answers = [];
    for (let day = 1; day <= 6; day++) answers.push(await reconFile(a.token, daysAgo(day)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(answers[3].body).toEqual({
      logId: expect.any(String),
      status: false,
      code: 'RATE_LIMITED',
      message: '3 of your exports are already being prepared; retry after 10 s, once one of them is ready',
    });
    expect(answers[3].headers['retry-after']).toBe('10');
    expect(await prisma.reconExport.count({ where: { merchantId: a.merchant.id } })).toBe(3);
    // Checking an export in progress is a read, not a new export: still answered.
    expect((await reconFile(a.token, daysAgo(1))).body.message).toBe('Export job queued');

    const other = await reconFile(b.token, daysAgo(1));
    expect(other.status).toBe(200);
    expect(other.body.data.jobId).toMatch(UUID);
    // Queued behind at most the other merchant's three, not its whole backlog.
    const queue = new Queue(QueueName.ReconExport, { connection: { url: redisUrl }, prefix });
    try {
      const waiting = (await queue.getJobs(['waiting', 'prioritized'])).map((j) => j.id);
      expect(waiting).toHaveLength(4);
      expect(waiting).toContain(other.body.data.jobId);
    } finally {
      await queue.close();
    }
  });

  it('limits new exports per minute, and not the status checks of an export in progress', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await prisma.merchant.update({
      where: { id: merchant.id },
      data: { createdAt: new Date(Date.now() - 60 * 86_400_000), rateLimitExport: 2 },
    });
    expect((await reconFile(token, daysAgo(1))).status).toBe(200);
    const second = await reconFile(token, daysAgo(2));
    expect(second.headers).toMatchObject({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '0',
      'ratelimit-policy': '2;w=60',
    });
    const third = await reconFile(token, daysAgo(3));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many export requests: the limit is 2 per 60 seconds; retry after 30 s',
    });
    expect(third.headers['retry-after']).toBe('30');
    expect(await prisma.reconExport.count({ where: { merchantId: merchant.id } })).toBe(2);
    for (let n = 0; n < 3; n++) expect((await reconFile(token, daysAgo(2))).status).toBe(200);
  });

  it('keeps refusing a new export from memory until its Retry-After, without asking Redis again', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await prisma.merchant.update({
      where: { id: merchant.id },
      data: { createdAt: new Date(Date.now() - 60 * 86_400_000), rateLimitExport: 1 },
    });
    expect((await reconFile(token, daysAgo(1))).status).toBe(200);
    const refused = await reconFile(token, daysAgo(2));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');

    // The bucket emptied behind the gateway's back: a limiter that asked Redis would now let the export through.
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.del(`${prefix}:ratelimit:${merchant.id}:export`)).toBe(1);
    } finally {
      redis.disconnect();
    }
    const again = await reconFile(token, daysAgo(3));
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        /^Too many export requests: the limit is 1 per 60 seconds; retry after (59|60) s$/,
      ),
    });
    expect(again.headers).toMatchObject({
      'ratelimit-limit': '1',
      'ratelimit-remaining': '0',
      'ratelimit-policy': '1;w=60',
    });
    expect(await prisma.reconExport.count({ where: { merchantId: merchant.id } })).toBe(1);
  });
});

describe('rate limits while their Redis is away (fail open)', () => {
  let redis: PrivateRedis;
  let gateway: GatewayApp;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        REDIS_URL: redis.url,
        QUEUE_PREFIX: 'fail-open',
        RATE_LIMIT_REFUSAL_DELAY_MS: '0',
      }),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await redis?.destroy();
  });

  it('serves every request unlimited, and counts it, instead of failing payments', async () => {
    const http = gateway.app.getHttpServer();
    const { merchant, token } = await createMerchant(gateway.prisma);
    await new MerchantAdmin(gateway.prisma).setRateLimits(merchant.id, { read: 1 });
    const get = () => request(http).get('/api/v1/payin/balance').set('token', token);
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);

    await redis.stop();
    // The refusal Redis answered before it went away stands until its Retry-After; then requests are served unlimited.
    await sleep(1_050);
    const served = [];
    for (let n = 0; n < 3; n++) served.push(await get());
    expect(served.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(served[0].headers['ratelimit-limit']).toBeUndefined();
    expect((await request(gateway.internalServer).get('/metrics')).text).toMatch(
      /rate_limiter_unavailable_total\{service="gateway"\} [1-9]/,
    );
  });
});

describe('a refusal is answered late, so a client looping on 429s cannot keep the gateway busy', () => {
  const DELAY_MS = 400;
  let gateway: GatewayApp;

  beforeAll(async () => {
    const prefix = `${process.env.TEST_REDIS_PREFIX ?? 't:'}${randomUUID().slice(0, 8)}:bull`;
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        QUEUE_PREFIX: prefix,
        RATE_LIMIT_REFUSAL_DELAY_MS: String(DELAY_MS),
      }),
    );
  });
  afterAll(() => gateway?.close());

  it('sends the 429 (same body and headers) no sooner than half RATE_LIMIT_REFUSAL_DELAY_MS after the request, and a 200 at once', async () => {
    const http = gateway.app.getHttpServer();
    const { merchant, token } = await createMerchant(gateway.prisma);
    await new MerchantAdmin(gateway.prisma).setRateLimits(merchant.id, { read: 1 });
    const timed = async () => {
      const started = performance.now();
      const res = await request(http).get('/api/v1/payin/balance').set('token', token);
      return { res, ms: performance.now() - started };
    };
    const served = await timed();
    expect(served.res.status).toBe(200);
    expect(served.ms).toBeLessThan(DELAY_MS / 2);
    // Refused by Redis, then from memory: both late.
    for (let n = 0; n < 2; n++) {
      const refused = await timed();
      expect(refused.res.status).toBe(429);
      expect(refused.ms).toBeGreaterThanOrEqual(DELAY_MS / 2 - 5);
      expect(refused.res.headers).toMatchObject({
        'retry-after': '1',
        'ratelimit-limit': '1',
        'ratelimit-remaining': '0',
      });
      expect(refused.res.body).toMatchObject({ status: false, code: 'RATE_LIMITED' });
    }
  });
});

describe("a merchant's reads in flight are capped per replica, so its burst cannot hold every database connection", () => {
  let gateway: GatewayApp;
  let port: number;

  beforeAll(async () => {
    const prefix = `${process.env.TEST_REDIS_PREFIX ?? 't:'}${randomUUID().slice(0, 8)}:bull`;
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        QUEUE_PREFIX: prefix,
        GATEWAY_PORT: '0',
        GATEWAY_INTERNAL_PORT: '0',
        RATE_LIMIT_READ_CONCURRENCY: '2',
        RATE_LIMIT_REFUSAL_DELAY_MS: '0',
      }),
    );
    await gateway.listen();
    port = (gateway.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => gateway?.close());

  /** A read that stays in flight: its headers (and token) are in, its promised body never comes. */
  const heldRead = (token: string) =>
    new Promise<Socket>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/payin/qris/inquiry HTTP/1.1\r\nHost: x\r\ntoken: ${token}\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n`,
        );
        resolve(socket);
      });
      socket.on('error', () => undefined);
    });

  it('refuses the read over the cap with 429 while the others are in flight, serves other merchants, and frees the slots when they end', async () => {
    const http = gateway.app.getHttpServer();
    const a = await createMerchant(gateway.prisma);
    const b = await createMerchant(gateway.prisma);
    const balanceOf = (token: string) => request(http).get('/api/v1/payin/balance').set('token', token);
    const held = [await heldRead(a.token), await heldRead(a.token)];
    await sleep(200);

    const refused = await balanceOf(a.token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({
      status: false,
      code: 'RATE_LIMITED',
      message: 'Too many read requests at once: at most 2 in flight; retry after 1 s',
    });
    expect((await balanceOf(b.token)).status).toBe(200);

    for (const socket of held) socket.destroy();
    await sleep(200);
    expect((await balanceOf(a.token)).status).toBe(200);
  });
});

describe("a busy merchant's cells are leased: far fewer Redis calls, and the limit still holds across replicas", () => {
  const LIMIT = 200;
  let redis: PrivateRedis;
  const gateways: GatewayApp[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    // A Redis of its own, so its command counts are this test's alone.
    redis = await PrivateRedis.start();
    for (let n = 0; n < 2; n++) {
      const gateway = await createGatewayApp(
        loadConfig(gatewayConfigSchema, {
          DATABASE_URL: process.env.DATABASE_URL,
          LOG_LEVEL: 'fatal',
          REDIS_URL: redis.url,
          QUEUE_PREFIX: 'leases',
          GATEWAY_PORT: '0',
          GATEWAY_INTERNAL_PORT: '0',
          RATE_LIMIT_READ_CONCURRENCY: '0',
          RATE_LIMIT_REFUSAL_DELAY_MS: '0',
        }),
      );
      await gateway.listen();
      gateways.push(gateway);
      ports.push((gateway.app.getHttpServer().address() as AddressInfo).port);
    }
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await redis?.destroy();
  });

  const gcraCalls = async () => {
    const client = new Redis(redis.url, { lazyConnect: true });
    // A Redis gone mid-read fails the read, not the test process.
    client.on('error', () => undefined);
    await client.connect();
    const stats = await client.info('commandstats');
    client.disconnect();
    return [...stats.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  };

  /** Sixteen clients, each taking the two replicas in turn, for `ms` or `count` requests: every status, and RateLimit-Remaining of each 200. */
  /**
   * 16 clients asking as fast as they can, for `ms`, or for `count` answers; `untilRefused`: and on
   * (up to 30 s) until one is refused, so a host too slow to outrun the limit in `ms` still meets it.
   */
  const flood = async (token: string, ms: number, count = Infinity, untilRefused = false) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const statuses: number[] = [];
    const remaining: number[] = [];
    const get = (port: number) =>
      new Promise<void>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/api/v1/payin/balance', headers: { token }, agent }, (res) => {
          res.resume();
          res.on('end', () => {
            statuses.push(res.statusCode as number);
            if (res.statusCode === 200) remaining.push(Number(res.headers['ratelimit-remaining']));
            resolve();
          });
        })
          .on('error', reject)
          .end();
      });
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async (_, c) => {
        const going = () => {
          const elapsed = performance.now() - started;
          if (elapsed >= 30_000 || statuses.length >= count) return false;
          return elapsed < ms || (untilRefused && !statuses.includes(429));
        };
        for (let i = c; going(); i++) await get(ports[i % 2]);
      }),
    );
    agent.destroy();
    return {
      statuses,
      remaining,
      served: statuses.filter((s) => s === 200).length,
      seconds: (performance.now() - started) / 1000,
    };
  };

  it('serves a busy merchant under its limit for a fifth of the EVALSHAs or fewer (one a request before)', async () => {
    const { merchant, token } = await createMerchant(gateways[0].prisma);
    await adminOf(gateways[0]).setRateLimits(merchant.id, { read: 100_000 });
    const callsBefore = await gcraCalls();
    const { statuses, remaining, served } = await flood(token, 30_000, 800);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(served).toBeGreaterThanOrEqual(800);
    expect(remaining.every((r) => r > 0 && r < 100_000)).toBe(true);
    expect((await gcraCalls()) - callsBefore).toBeLessThan(served / 5);
  });

  it('at its limit, serves the burst and the rate and no more than the bucket allows, plus at most one lease lifetime', async () => {
    const { merchant, token } = await createMerchant(gateways[0].prisma);
    await adminOf(gateways[0]).setRateLimits(merchant.id, { read: LIMIT });
    const { statuses, remaining, served, seconds } = await flood(token, 1_500, Infinity, true);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.length).toBeGreaterThan(served);
    // Every cell served was charged in Redis: the burst, the rate over the run, and at most one
    // lease lifetime's worth of cells charged before a moment of the run and served after it.
    expect(served).toBeLessThanOrEqual(LIMIT + Math.ceil(LIMIT * (seconds + LEASE_TTL_MS / 1000)));
    expect(served).toBeGreaterThanOrEqual(LIMIT);
    expect(remaining.every((r) => r >= 0 && r < LIMIT)).toBe(true);
  });
});

describe('the limiter never stops the gateway from starting', () => {
  it('starts (after its short wait) when its Redis accepts the connection but answers nothing in time', async () => {
    // A peer that accepts and stays silent: ioredis' ready check runs into the 100 ms command
    // timeout and the connection emits 'error' before it is ever ready (a loaded machine, a hung Redis).
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const config = loadConfig(gatewayConfigSchema, {
      DATABASE_URL: process.env.DATABASE_URL,
      LOG_LEVEL: 'fatal',
      REDIS_URL: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}/0`,
      RATE_LIMIT_REDIS_TIMEOUT_MS: '100',
    });
    const limiter = new RateLimiter(config, createLogger('gateway', 'fatal'), new Registry());
    const errors: unknown[] = [];
    try {
      await limiter.onModuleInit().catch((err: unknown) => errors.push(err));
      expect(errors).toEqual([]);
    } finally {
      limiter.onModuleDestroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
