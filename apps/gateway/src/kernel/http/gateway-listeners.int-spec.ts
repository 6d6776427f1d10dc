import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import request from 'supertest';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'listeners_admin_0123456789abcdef0123456789';
const env = {
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: process.env.TEST_REDIS_URL,
  QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
  LOG_LEVEL: 'fatal',
  ADMIN_TOKEN,
  GATEWAY_PORT: '0',
  GATEWAY_INTERNAL_PORT: '0',
};

describe('gateway ports: the public port never serves /internal, /ops or /metrics (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;

  beforeAll(async () => {
    gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, env));
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(() => gateway.close());

  it.each([
    ['post', '/internal/acquirer/qris/notifications'],
    ['post', '/ops/merchants'],
    ['get', '/ops/dead-letters'],
    ['post', '/ops/webhooks/resend-failed'],
    ['get', '/ops/queues'],
    ['get', '/ops/queues/api/queues'],
    ['get', '/metrics'],
    ['get', '/metrics?x=1'],
    ['post', '/console/api/session'],
    ['get', '/Console/api/session'],
  ] as const)('public port: %s %s answers as an unknown route does', async (method, path) => {
    const res = await request(pub)[method](path).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({});
    const unknown = await request(pub)[method]('/no-such-route').send({});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ...unknown.body, logId: expect.any(String) });
    expect(res.body).toMatchObject({ status: false, message: 'Route not found', code: 'NOT_FOUND' });
  });

  it('internal port: serves the acquirer endpoint, the ops API, Bull Board and metrics', async () => {
    const unsigned = await request(internal)
      .post('/internal/acquirer/qris/notifications')
      .set('content-type', 'application/json')
      .send('{}');
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('SIGNATURE_INVALID');
    expect(
      (await request(internal).get('/ops/dead-letters').set('authorization', `Bearer ${ADMIN_TOKEN}`)).status,
    ).toBe(200);
    expect((await request(internal).get('/ops/queues/api/queues').auth('admin', ADMIN_TOKEN)).status).toBe(200);
    expect((await request(internal).get('/metrics')).text).toContain('process_cpu_user_seconds_total');
  });

  it('both ports: /healthz and /readyz; the public port: the merchant API and /docs', async () => {
    for (const server of [pub, internal]) {
      expect((await request(server).get('/healthz')).body).toEqual({ status: 'ok' });
      expect((await request(server).get('/readyz')).status).toBe(200);
    }
    expect((await request(pub).get('/docs/openapi.json')).status).toBe(200);
    const { token } = await createMerchant(gateway.prisma);
    expect((await request(pub).get('/api/v1/payin/balance').set('token', token)).status).toBe(200);
  });
});

/** Opens a raw connection and collects what the server sends until it closes the socket. */
function rawConnection(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const socket = connect(port, '127.0.0.1');
  const opened = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return { socket, received: () => text, closed };
}

function trickle(socket: Socket, everyMs: number): NodeJS.Timeout {
  return setInterval(() => socket.writable && socket.write('1'), everyMs);
}

describe('gateway connection limits (real sockets)', () => {
  let gateway: GatewayApp;
  let port: number;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { ...env, HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '1000' }),
    );
    await gateway.listen();
    port = (gateway.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => gateway.close());

  it('binds both ports to loopback by default (GATEWAY_HOST, GATEWAY_INTERNAL_HOST)', () => {
    expect((gateway.app.getHttpServer().address() as AddressInfo).address).toBe('127.0.0.1');
    expect((gateway.internalServer.address() as AddressInfo).address).toBe('127.0.0.1');
  });

  it('cuts off a client that sends its body a byte at a time (408, socket closed) after HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { token } = await createMerchant(gateway.prisma);
    const conn = rawConnection(port);
    conn.socket.write(
      `POST /api/v1/payin/qris/generate HTTP/1.1\r\nHost: x\r\ntoken: ${token}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`,
    );
    const timer = trickle(conn.socket, 200);
    const ms = await Promise.race([conn.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 6000))]);
    clearInterval(timer);
    conn.socket.destroy();
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(4000);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client that never finishes its headers after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const conn = rawConnection(port);
    conn.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => conn.socket.writable && conn.socket.write('x-slow: 1\r\n'), 200);
    const ms = await Promise.race([conn.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 6000))]);
    clearInterval(timer);
    conn.socket.destroy();
    expect(ms).toBeLessThan(4000);
  });

  it('refuses a request without a valid token with 401 before reading its body, and closes the connection', async () => {
    for (const [header, message] of [
      ['', 'Token not found'],
      ['token: not-a-token\r\n', 'Token not valid'],
    ]) {
      const conn = rawConnection(port);
      // 60 KB announced (under the body limit), 10 bytes sent: the answer cannot wait for the rest.
      conn.socket.write(
        `POST /api/v1/payin/qris/generate HTTP/1.1\r\nHost: x\r\n${header}content-type: application/json\r\ncontent-length: 60000\r\n\r\n{"amount":`,
      );
      const timer = trickle(conn.socket, 200);
      const ms = await Promise.race([conn.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 3000))]);
      clearInterval(timer);
      conn.socket.destroy();
      expect(ms).toBeLessThan(1000);
      expect(conn.received()).toMatch(/^HTTP\/1\.1 401/);
      expect(conn.received()).toMatch(/connection: close/i);
      expect(conn.received()).toContain(`"message":"${message}"`);
    }
  });
});
