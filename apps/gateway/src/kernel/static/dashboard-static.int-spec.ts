import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, loadConfig } from '@pay/platform';
import request from 'supertest';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

const env = {
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: process.env.TEST_REDIS_URL,
  QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
  LOG_LEVEL: 'fatal',
  GATEWAY_PORT: '0',
  GATEWAY_INTERNAL_PORT: '0',
};
const ASSET = 'assets/index-Ab3_x9Qz.js';
const SECRET = 'secret-outside-the-bundle';
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** A built web app as `npm run build` leaves it: merchant/ and console/, and a file beside them that must never be served. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-static-'));
  for (const bundle of ['merchant', 'console']) {
    mkdirSync(join(dir, bundle, 'assets'), { recursive: true });
    writeFileSync(
      join(dir, bundle, 'index.html'),
      `<!doctype html><title>${bundle}</title><script type="module" src="./${ASSET}"></script>`,
    );
    writeFileSync(join(dir, bundle, ASSET), `console.log(${JSON.stringify(bundle)});`);
  }
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(dir, 'merchant', '.env'), SECRET);
  return dir;
}

/** A raw request: the path goes out exactly as written (no client-side normalisation of `..`). */
function raw(server: Server, path: string): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard and console bundles served by the gateway (real Postgres and Redis)', () => {
  let dir: string;
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;

  beforeAll(async () => {
    dir = fakeBuild();
    gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, { ...env, DASHBOARD_DIR: dir }));
    await gateway.listen();
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the merchant dashboard at /dashboard/ on the public port, with the security headers and no caching of the page', async () => {
    const res = await request(pub).get('/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>merchant</title>');
    expect(res.headers).toMatchObject({
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    expect(res.headers.etag).toBeDefined();
    expect((await request(pub).get('/dashboard/index.html')).headers['cache-control']).toBe('no-cache');
  });

  it('redirects /dashboard to /dashboard/', async () => {
    const res = await request(pub).get('/dashboard');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/dashboard/');
  });

  it('serves a hashed asset as immutable', async () => {
    const res = await request(pub).get(`/dashboard/${ASSET}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.text).toBe('console.log("merchant");');
    expect(res.headers).toMatchObject({
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });

  it('serves the console only on the internal port: on the public port /console answers as an unknown route does', async () => {
    const unknown = await request(pub).get('/no-such-route');
    for (const path of ['/console', '/console/', '/console/index.html', `/console/${ASSET}`, '/CONSOLE/']) {
      const res = await request(pub).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ ...unknown.body, logId: expect.any(String) });
    }
    const page = await request(internal).get('/console/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>console</title>');
    expect(page.headers).toMatchObject({ 'content-security-policy': CSP, 'cache-control': 'no-cache' });
    expect((await request(internal).get(`/console/${ASSET}`)).text).toBe('console.log("console");');
    expect((await request(internal).get('/console')).headers.location).toBe('/console/');
  });

  it.each([
    '/dashboard/../secret.txt',
    '/dashboard/%2e%2e/secret.txt',
    '/dashboard/..%2fsecret.txt',
    '/dashboard/%2e%2e%2fsecret.txt',
    '/dashboard/assets/..%2f..%2fsecret.txt',
    '/dashboard/..%5csecret.txt',
    '/dashboard/.env',
    '/dashboard/%2eenv',
    '/dashboard//etc/passwd',
  ])('refuses %s (404 in the envelope, nothing read from outside the bundle)', async (path) => {
    const res = await raw(pub, path);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain(SECRET);
    expect(JSON.parse(res.body)).toMatchObject({ status: false, code: 'NOT_FOUND' });
  });

  it('reaches the bundle itself over the same raw requests', async () => {
    expect(await raw(pub, `/dashboard/${ASSET}`)).toEqual({ status: 200, body: 'console.log("merchant");' });
  });

  it('answers a file that is not in the bundle as an unknown route, and a write with 405', async () => {
    expect((await request(pub).get('/dashboard/assets/nope.js')).body).toMatchObject({
      status: false,
      code: 'NOT_FOUND',
    });
    const post = await request(pub).post('/dashboard/').set('content-type', 'application/json').send('{}');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('a gateway without the built web app', () => {
  it('starts, warns, and answers /dashboard/ with 404 in the envelope', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dashboard-none-'));
    const lines: string[] = [];
    const logger = createLogger(
      'gateway',
      'warn',
      new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }),
    );
    const gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, { ...env, DASHBOARD_DIR: empty }), logger);
    try {
      for (const path of ['/dashboard', '/dashboard/', '/dashboard/index.html']) {
        const res = await request(gateway.app.getHttpServer()).get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.body).toMatchObject({ status: false, message: 'Route not found', code: 'NOT_FOUND' });
      }
      expect((await request(gateway.app.getHttpServer()).get('/healthz')).status).toBe(200);
      expect(lines.join('')).toContain('/dashboard/ is not served: no built bundle there');
      expect(lines.join('')).toContain('/console/ is not served');
    } finally {
      await gateway.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
