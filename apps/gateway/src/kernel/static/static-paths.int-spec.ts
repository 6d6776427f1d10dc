import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { createLogger } from '@pay/platform';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

/**
 * Every root the gateway serves files from, on both ports: the Swagger UI (/docs/), the
 * dashboard and console bundles (/dashboard/, /console/) and Bull Board's assets
 * (/ops/queues/static/), asked for with every way of spelling a path that climbs out of them.
 * Never a 5xx (a 500 pages on-call through PaymentsApiServerErrors), never a file from outside
 * the roots, every refusal in the envelope and logged as a client error. FUZZ_RUNS scales it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const ADMIN_TOKEN = 'static_admin_0123456789abcdef0123456789abcdef';
const BOARD_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;
const ASSET = 'assets/index-Ab3_x9Qz.js';
const SECRET = 'secret-outside-the-static-roots';
/** Text of files outside every root that a climb could reach. */
const OUTSIDE = [SECRET, '"name": "qris-payments"', 'root:x:0:0'];

const swaggerRoot = dirname(
  require.resolve('swagger-ui-dist/package.json', { paths: [dirname(require.resolve('@nestjs/swagger'))] }),
);
const boardRoot = join(
  dirname(require.resolve('@bull-board/ui/package.json', { paths: [dirname(require.resolve('@bull-board/api'))] })),
  'dist',
  'static',
);

/** A built web app: merchant/ and console/, and files beside and inside them that must never be served. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'static-paths-'));
  for (const bundle of ['merchant', 'console']) {
    mkdirSync(join(dir, bundle, 'assets'), { recursive: true });
    writeFileSync(join(dir, bundle, 'index.html'), `<!doctype html><title>${bundle}</title>`);
    writeFileSync(join(dir, bundle, ASSET), `console.log(${JSON.stringify(bundle)});`);
  }
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(dir, 'package.json'), SECRET);
  return dir;
}

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/** The hashes of every file under `root`: what a 200 from that root may be. */
function hashesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => sha(readFileSync(join(entry.parentPath, entry.name))));
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose target goes out exactly as written: no client-side normalisation of `..`, `\` or `%`. */
function send(server: Server, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static roots and paths that climb out of them (real Postgres and Redis)', () => {
  let dir: string;
  let gateway: GatewayApp;
  let ports: { name: string; server: Server }[];
  const lines: Record<string, unknown>[] = [];
  const allowed = new Set<string>();

  beforeAll(async () => {
    dir = fakeBuild();
    gateway = await startTestGateway(
      { LOG_LEVEL: 'info', GATEWAY_PORT: '0', GATEWAY_INTERNAL_PORT: '0', ADMIN_TOKEN, DASHBOARD_DIR: dir },
      createLogger('gateway', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) }),
    );
    await gateway.listen();
    ports = [
      { name: 'public', server: gateway.app.getHttpServer() },
      { name: 'internal', server: gateway.internalServer },
    ];
    for (const root of [swaggerRoot, boardRoot, join(dir, 'merchant'), join(dir, 'console')])
      for (const hash of hashesUnder(root)) allowed.add(hash);
    // The pages generated rather than read from a root.
    for (const path of ['/docs', '/docs/', '/docs/index.html', '/docs/swagger-ui-init.js', '/docs/openapi.json'])
      allowed.add(sha((await send(gateway.internalServer, 'GET', path)).body));
    allowed.add(sha((await send(gateway.internalServer, 'GET', '/ops/queues/', { authorization: BOARD_AUTH })).body));
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What every answer must be; a refusal from one of our roots in the envelope (Bull Board answers its own). */
  function expectSafe(method: string, path: string, answer: Answer): void {
    const text = answer.body.toString('latin1');
    const leaked = OUTSIDE.filter((marker) => text.includes(marker));
    const foreign = answer.status === 200 && method === 'GET' && !allowed.has(sha(answer.body));
    expect({ method, path, status: answer.status < 500, leaked, foreign }).toEqual({
      method,
      path,
      status: true,
      leaked: [],
      foreign: false,
    });
    expect(answer.headers['x-log-id']).toEqual(expect.any(String));
    if (answer.status >= 400 && method === 'GET' && !path.startsWith('/ops/queues/'))
      expect({ path, body: JSON.parse(text) }).toEqual({
        path,
        body: {
          logId: answer.headers['x-log-id'],
          status: false,
          message: expect.any(String),
          code: expect.any(String),
        },
      });
  }

  it.each([
    '/docs/../package.json',
    '/docs/../../package.json',
    '/docs/%2e%2e/%2e%2e/package.json',
    '/docs/..%2f..%2fpackage.json',
    '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/..%5c..%5cpackage.json',
    '/docs/..\\..\\package.json',
    '/docs/.%2e/.%2e/package.json',
    '/docs/swagger-ui.css%00.js',
    '/docs/%00',
    '/docs/..%00/package.json',
    '/ops/queues/static/../../../package.json',
    '/ops/queues/static/%2e%2e/%2e%2e/%2e%2e/package.json',
  ])('%s: 404 in the envelope on both ports, logged as a client error', async (path) => {
    for (const { name, server } of ports) {
      const answer = await send(server, 'GET', path, { authorization: BOARD_AUTH });
      expectSafe('GET', path, answer);
      expect({ name, path, status: answer.status, body: JSON.parse(answer.body.toString()) }).toEqual({
        name,
        path,
        status: 404,
        body: expect.objectContaining({ status: false, message: 'Route not found', code: 'NOT_FOUND' }),
      });
      const logId = answer.headers['x-log-id'];
      // The access log line is written once the answer has gone.
      for (let i = 0; i < 100 && !lines.some((l) => l.logId === logId && l.msg === 'request'); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(lines.filter((l) => l.logId === logId).map((l) => [l.level, l.msg, l.status])).toContainEqual([
        'info',
        'request',
        404,
      ]);
      expect(lines.filter((l) => l.logId === logId && l.level !== 'info')).toEqual([]);
    }
  });

  it.each([
    ['/docs/%c0%ae%c0%ae/package.json', 400, '/docs/%c0%ae%c0%ae/package.json'],
    ['/docs/%ff', 400, '/docs/%ff'],
    ['/dashboard/%e0%80%ae', 400, '/dashboard/%e0%80%ae'],
    ['/docs/%252e%252e/%252e%252e/package.json', 404, '/docs/%252e%252e/%252e%252e/package.json'],
    ['/docs//etc/passwd', 404, '/docs//etc/passwd'],
    ['/docs/ + a 300-character name', 404, `/docs/${'a'.repeat(300)}`],
    ['/docs/ + 3,000 segments', 404, `/docs/${'a/'.repeat(3000)}x`],
    ['/dashboard/ + 50 ../', 404, `/dashboard/${'../'.repeat(50)}etc/passwd`],
    ['/console/..%2fsecret.txt', 404, '/console/..%2fsecret.txt'],
  ])('%s: %i in the envelope on both ports', async (_name, status, path) => {
    for (const { name, server } of ports) {
      const answer = await send(server, 'GET', path);
      expectSafe('GET', path, answer);
      expect({ name, status: answer.status }).toEqual({ name, status });
    }
  });

  it.each([
    [{ range: 'bytes=999999999-' }, 416],
    [{ range: 'bytes=5-1' }, 416],
    [{ 'if-match': '"not-the-etag"' }, 412],
    [{ 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, 412],
  ])('a Swagger UI asset with %j: %i, never a 500', async (headers, status) => {
    for (const { name, server } of ports) {
      const answer = await send(server, 'GET', '/docs/swagger-ui.css', headers);
      expectSafe('GET', '/docs/swagger-ui.css', answer);
      expect({ name, status: answer.status }).toEqual({ name, status });
    }
  });

  it('still serves the roots themselves', async () => {
    const css = await send(gateway.app.getHttpServer(), 'GET', '/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.body.equals(readFileSync(join(swaggerRoot, 'swagger-ui.css')))).toBe(true);
    expect((await send(gateway.app.getHttpServer(), 'GET', `/dashboard/${ASSET}`)).body.toString()).toBe(
      'console.log("merchant");',
    );
    expect((await send(gateway.internalServer, 'GET', `/console/${ASSET}`)).body.toString()).toBe(
      'console.log("console");',
    );
    const board = await send(gateway.internalServer, 'GET', '/ops/queues/static/favicon.ico', {
      authorization: BOARD_AUTH,
    });
    expect(board.status).toBe(200);
    expect(board.body.equals(readFileSync(join(boardRoot, 'favicon.ico')))).toBe(true);
  });

  // Every way of climbing out: dots plain, encoded, double-encoded, overlong UTF-8 and half-encoded;
  // slashes encoded, double-encoded and as backslashes; NUL; doubled slashes; long paths.
  const up = fc.constantFrom(
    '..',
    '%2e%2e',
    '%2E%2E',
    '.%2e',
    '%2e.',
    '%252e%252e',
    '%25252e%25252e',
    '..%00',
    '%c0%ae%c0%ae',
    '%e0%80%ae%e0%80%ae',
    '.',
    '...',
    '..;',
    '%2e',
  );
  const separator = fc.constantFrom(
    '/',
    '%2f',
    '%2F',
    '%252f',
    '\\',
    '%5c',
    '%5C',
    '%255c',
    '//',
    '/./',
    '%00/',
    ';/',
    '%c0%af',
  );
  const target = fc.constantFrom(
    'secret.txt',
    'package.json',
    'etc/passwd',
    'proc/self/environ',
    'index.html',
    'swagger-ui.css',
    ASSET,
    'merchant/index.html',
    'favicon.ico',
    '',
  );
  const suffix = fc.constantFrom(
    '',
    '%00',
    '%00.js',
    '?x=..%2f..%2f',
    '#frag',
    '/',
    '%20',
    '.',
    '::$DATA',
    '%2500',
    '%',
  );
  const prefix = fc.constantFrom(
    '/docs/',
    '/docs/swagger-ui/',
    '/dashboard/',
    '/dashboard/assets/',
    '/console/',
    '/console/assets/',
    '/ops/queues/static/',
    '/ops/queues/static/js/',
  );
  const climb = fc
    .tuple(prefix, fc.array(fc.tuple(up, separator), { maxLength: 12 }), target, suffix)
    .map(([p, steps, t, s]) => p + steps.map(([u, sep]) => u + sep).join('') + t + s);
  const long = fc
    .tuple(prefix, fc.integer({ min: 100, max: 6000 }), fc.constantFrom('a', '../', '%2e%2e%2f', 'a/'))
    .map(([p, n, piece]) => p + piece.repeat(Math.ceil(n / piece.length)));
  const path = fc.oneof({ weight: 5, arbitrary: climb }, { weight: 1, arbitrary: long });

  it('any climb out of any root, on either port, with or without Bull Board credentials: never a 5xx, never a file from outside, refusals enveloped (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.constantFrom('GET', 'HEAD'),
        fc.boolean(),
        fc.boolean(),
        fc.option(
          fc.constantFrom<Record<string, string>>(
            { range: 'bytes=0-0' },
            { range: 'bytes=999999999-' },
            { 'if-match': '"x"' },
          ),
        ),
        async (p, method, internal, board, extra) => {
          const server = internal ? gateway.internalServer : gateway.app.getHttpServer();
          const headers: Record<string, string> = { ...(board ? { authorization: BOARD_AUTH } : {}), ...extra };
          expectSafe(method, p, await send(server, method, p, headers));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('nothing above was an error: no error line in the log, no 5xx in the request metrics', async () => {
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    const metrics = (await send(gateway.internalServer, 'GET', '/metrics')).body.toString();
    expect(metrics).toMatch(/^http_requests_total\{/m);
    expect(metrics.split('\n').filter((l) => /^http_requests_total\{.*status="5\d\d"/.test(l))).toEqual([]);
  });
});
