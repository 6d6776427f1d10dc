import { randomUUID } from 'node:crypto';
import { loadConfig } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

/** The value of the sample `name` whose labels include all of `labels`; undefined when there is none. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const found = Object.fromEntries(
      [...line.slice(0, line.lastIndexOf('}')).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('request metrics on /metrics (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let http: App;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        RATE_LIMIT_REFUSAL_DELAY_MS: '0',
      }),
    );
    http = gateway.app.getHttpServer();
  });
  afterAll(() => gateway.close());

  const metrics = async () => (await request(gateway.internalServer).get('/metrics').expect(200)).text;

  it('counts every answer by method, route template and status, refusals included, and times it', async () => {
    const { token } = await createMerchant(gateway.prisma);
    await request(http).get('/api/v1/payin/balance').set('token', token).expect(200);
    await request(http).get('/api/v1/payin/balance').set('token', token).expect(200);
    await request(http).get('/api/v1/payin/balance').expect(401);
    await request(http)
      .post('/api/v1/disbursement/inquiry')
      .set('token', token)
      .send({ merchantTrxId: 42 })
      .expect(400);

    const text = await metrics();
    const balance = { method: 'GET', route: '/api/v1/payin/balance', service: 'gateway' };
    expect(sample(text, 'http_requests_total', { ...balance, status: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { ...balance, status: '401' })).toBe(1);
    expect(
      sample(text, 'http_requests_total', { method: 'POST', route: '/api/v1/disbursement/inquiry', status: '400' }),
    ).toBe(1);
    // One timer per route: the two answers and the refusal.
    expect(sample(text, 'http_request_duration_seconds_count', balance)).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...balance, le: '+Inf' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_sum', balance)).toBeGreaterThan(0);
  });

  it('counts a request no route matched under "unmatched", never under the path the caller chose', async () => {
    const before =
      sample(await metrics(), 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }) ?? 0;
    const path = `/api/v1/no-such-route-${randomUUID()}`;
    for (let i = 0; i < 3; i++) await request(http).get(`${path}-${i}`).expect(404);

    const text = await metrics();
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(before + 3);
    expect(text).not.toContain('no-such-route');
  });
});
