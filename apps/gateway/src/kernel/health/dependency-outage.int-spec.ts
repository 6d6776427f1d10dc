import { QueueName } from '@pay/contracts';
import { loadConfig } from '@pay/platform';
import { createMerchant, createTestDatabase } from '@pay/testing';
import { PrivatePostgres, PrivateRedis } from '@pay/devstack';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A request that must be answered quickly, whatever the answer. */
async function timed(send: () => Promise<request.Response>): Promise<{ res: request.Response; ms: number }> {
  const t0 = Date.now();
  const res = await send();
  return { res, ms: Date.now() - t0 };
}

function expectUnavailable(res: request.Response): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.body).toEqual({
    logId: expect.stringMatching(UUID),
    status: false,
    message: 'Service temporarily unavailable, please retry',
    code: 'SERVICE_UNAVAILABLE',
  });
}

/** Polls until the gateway's readiness is `status` (its Redis connection may still be connecting). */
async function readiness(http: App, status: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await request(http).get('/readyz')).status !== status) {
    if (Date.now() > deadline) throw new Error(`gateway readiness not ${status} within 10 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Yesterday and the day before in Asia/Jakarta, as the recon endpoint takes them. */
const jakartaDate = (daysAgo: number) =>
  new Date(Date.now() + 7 * 3600_000 - daysAgo * 86400_000).toISOString().slice(0, 10);

describe('gateway during a PostgreSQL or Redis outage (private servers, stopped mid-test)', () => {
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  let gateway: GatewayApp;
  let http: App;
  let token: string;

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
    redis = await PrivateRedis.start();
    const databaseUrl = await createTestDatabase('pay_outage', pg.url(''));
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        LOG_LEVEL: 'fatal',
        QUEUE_PREFIX: 'outage',
      }),
    );
    http = gateway.app.getHttpServer();
    const created = await createMerchant(gateway.prisma);
    token = created.token;
    // It exports past days: no export of a day before the merchant existed.
    await gateway.prisma.merchant.update({
      where: { id: created.merchant.id },
      data: { createdAt: new Date(Date.now() - 7 * 86_400_000) },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await pg?.destroy();
    await redis?.destroy();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while PostgreSQL is down, and 200 again once it is back, without a restart', async () => {
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);
    await readiness(http, 200);

    await pg.stop();
    // The plain-pg path (token check, balance) and the Prisma path (recon lookup) alike, never a 500, never hanging.
    for (const send of [
      () => request(http).get('/api/v1/payin/balance').set('token', token),
      () =>
        request(http)
          .post('/api/v1/payin/reconFile')
          .set('token', token)
          .send({ date: jakartaDate(1) }),
    ]) {
      const { res, ms } = await timed(send);
      expectUnavailable(res);
      expect(ms).toBeLessThan(6000);
    }
    const ready = await request(http).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.postgres).not.toBe('ok');
    expect(ready.body.checks.redis).toBe('ok');

    await pg.start();
    const res = await request(http).get('/api/v1/payin/balance').set('token', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ balance: { available: 0, pending: 0 } });
    await readiness(http, 200);
  });

  it('fails fast with 503 while Redis is down (the recon queue producer does not wait for it), and queues again once it is back', async () => {
    await redis.stop();
    const { res, ms } = await timed(() =>
      request(http)
        .post('/api/v1/payin/reconFile')
        .set('token', token)
        .send({ date: jakartaDate(2) }),
    );
    expectUnavailable(res);
    expect(ms).toBeLessThan(3000);
    const ready = await request(http).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({ postgres: 'ok' });
    expect(ready.body.checks.redis).not.toBe('ok');

    await redis.start();
    await readiness(http, 200);
    const queued = await request(http)
      .post('/api/v1/payin/reconFile')
      .set('token', token)
      .send({ date: jakartaDate(3) });
    expect(queued.status).toBe(200);
    expect(queued.body.message).toBe('Export job queued');
    const queue = new Queue(QueueName.ReconExport, { connection: { url: redis.url }, prefix: 'outage' });
    try {
      expect(await queue.getJob(queued.body.data.jobId)).toBeTruthy();
    } finally {
      await queue.close();
    }
  });

  it('answers 503 while Redis refuses writes at its memory limit (OOM), and queues once it has room', async () => {
    const admin = new Redis(redis.url).on('error', () => undefined);
    try {
      await admin.config('SET', 'maxmemory', '1');
      const full = await request(http)
        .post('/api/v1/payin/reconFile')
        .set('token', token)
        .send({ date: jakartaDate(4) });
      expectUnavailable(full);
      await admin.config('SET', 'maxmemory', '0');
      // The export the refused request created is still queued: the next request for the day enqueues it.
      const queued = await request(http)
        .post('/api/v1/payin/reconFile')
        .set('token', token)
        .send({ date: jakartaDate(4) });
      expect(queued.status).toBe(200);
      expect(queued.body.message).toBe('Export job queued');
    } finally {
      await admin.config('SET', 'maxmemory', '0').catch(() => undefined);
      admin.disconnect();
    }
  });
});
