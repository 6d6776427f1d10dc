import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg } from 'node:os';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTransport, deadLetterTopic, DLQ_HEADERS } from '@pay/bus';
import { Topic } from '@pay/contracts';
import { parseAmount } from '@pay/domain';
import { createPrismaClient, dropDatabase, type PrismaClient, SettlementPlanner } from '@pay/persistence';
import {
  createDashboardUser,
  createMerchant,
  createTestDatabase,
  firstRenderWatcher,
  ledgerCommand,
  type Ready,
  repoRoot,
  signInDashboard,
  TEST_DASHBOARD_PASSWORD,
  waitFor,
  WebhookReceiver,
} from '@pay/testing';
import { type LocalStack } from '@pay/devstack';
import { type Browser, type Cookie, chromium, type Response } from 'playwright-core';
import { BENCH_RATE_LIMITS, BENCH_REDIS_URL, runBench, startBenchStack } from '../lib/harness';
import { percentile, printResults, recordNumbers } from '../lib/report';

/**
 * The merchant dashboard and the operator console, cold-loaded in a real browser (Debian's
 * Chromium through playwright-core, as e2e/dashboard.e2e-spec.ts drives it) against the four
 * services as processes: every page `rounds` times, each load in a fresh browser context (no
 * cache; the signed-in session's cookies). Per page: first render (navigation start to the page's
 * first meaningful element laid out: the browser test's watcher, libs/testing/src/browser), the
 * time to its data (the balance with its amount, a table's first row), and the JavaScript it
 * loads, raw and gzipped (the gateway does not compress; an ingress or CDN would).
 *
 * Ceiling in the same run: the same page loaded from a bare node:http server serving the same
 * dist files from memory and answering the page's API calls with the gateway's own answers,
 * recorded on a warm-up load (same bytes, no work): the browser + network + bundle floor. Loads
 * alternate gateway / floor, page by page, so both see the same machine.
 *
 * Data: one merchant with five pay-ins paid through the sandbox (with callbacks to a local
 * receiver, so there are webhook deliveries), settled, one payout; a dead letter; an operator
 * action in the audit log. Its own database and bus key prefix; traffic to 127.0.0.1 only (any
 * other host a page asks for is counted and fails the run); stops by itself within DEADLINE.
 * Targets (the dashboard issue): first render < 1000 ms (p95), JavaScript < 300 KB gzipped per page.
 * Usage: npm run build && npm run bench -- dashboard [rounds=5]
 */
const ROUNDS = Number(process.argv[2] ?? 5);
const TARGET_FIRST_RENDER_MS = 1000;
const TARGET_JS_GZIP_BYTES = 300 * 1024;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As the browser test launches it.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
/** Set-up and seeding (~1 min), then two loads of 13 pages per round at worst 15 s each: never more. */
const DEADLINE_MS = 5 * 60_000 + ROUNDS * 13 * 2 * 15_000;
const LOAD_TIMEOUT_MS = 15_000;
const PAYINS = 5;
const ADMIN_TOKEN = 'bench-dashboard-admin-token-0123456789abcdef';

type App = 'merchant' | 'console';
interface PageSpec {
  name: string;
  app: App;
  /** Hash route ('' for the sign-in page, loaded without a session) */
  route: string;
  signedIn: boolean;
  /** First meaningful element: the same as the browser test's */
  render: Ready;
  /** The page's data; absent when the page shows none (sign-in, reconciliation's form) */
  data?: Ready;
}
interface Sample {
  renderMs: number;
  dataMs?: number;
  js: { url: string; bytes: number; gzip: number }[];
}
interface Recorded {
  status: number;
  contentType: string;
  body: Buffer;
}

const FIRST_RENDER = '__firstRender';
const DATA_READY = '__dataReady';
const ROW: Ready = { css: 'table tbody tr' };

function pageSpecs(
  paidTrxId: string,
  merchantRoutes: Record<string, string>,
  consoleRoutes: Record<string, string>,
): PageSpec[] {
  const m = (name: string, route: string, render: Ready, data?: Ready): PageSpec => ({
    name: `merchant ${name}`,
    app: 'merchant',
    route,
    signedIn: route !== '',
    render,
    data,
  });
  const c = (name: string, route: string, render: Ready, data?: Ready): PageSpec => ({
    name: `console ${name}`,
    app: 'console',
    route,
    signedIn: route !== '',
    render,
    data,
  });
  const table = { css: 'table' };
  return [
    m('sign-in', '', { css: 'input[type="password"]' }),
    // The overview and the pay-in detail render nothing meaningful before their data: render = data there.
    m(
      'overview',
      merchantRoutes.Overview,
      { css: '[data-testid="balance-available"]' },
      { css: '[data-testid="balance-available"][data-amount]' },
    ),
    m('pay-ins', merchantRoutes['Pay-ins'], table, ROW),
    m(
      'pay-in detail',
      `#/payins/${paidTrxId}`,
      { css: '[data-testid="payin-status"]' },
      { css: '[data-testid="payin-status"]' },
    ),
    m('payouts', merchantRoutes.Payouts, table, ROW),
    m('reconciliation', merchantRoutes.Reconciliation, { css: 'button', text: 'Export' }),
    m('developers', merchantRoutes.Developers, { css: 'button', text: 'Create token' }, ROW),
    c('sign-in', '', { css: 'input[type="password"]' }),
    c('merchants', consoleRoutes.Merchants, table, ROW),
    c('settlements', consoleRoutes.Settlements, table, ROW),
    c('dead letters', consoleRoutes['Dead letters'], table, ROW),
    c('webhook deliveries', consoleRoutes['Webhook deliveries'], table, ROW),
    c('audit log', consoleRoutes['Audit log'], table, ROW),
  ];
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench_dashboard');
  const prisma = createPrismaClient(databaseUrl, 2);
  const resources: { stack?: LocalStack; receiver?: WebhookReceiver; browser?: Browser; bare?: BareServer } = {};
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`bench:dashboard did not finish within ${DEADLINE_MS / 1000} s: stopped`)),
        DEADLINE_MS,
      );
    });
    await Promise.race([run(databaseUrl, prisma, resources), deadline]);
  } finally {
    clearTimeout(timer);
    await resources.browser?.close().catch(() => undefined);
    await resources.bare?.close();
    await resources.stack?.stop();
    await resources.receiver?.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

async function run(
  databaseUrl: string,
  prisma: PrismaClient,
  r: { stack?: LocalStack; receiver?: WebhookReceiver; browser?: Browser; bare?: BareServer },
): Promise<void> {
  const loadBefore = loadavg()[0];
  r.receiver = await WebhookReceiver.start();
  r.stack = await startBenchStack(
    databaseUrl,
    {
      SANDBOX_MODE: 'true',
      ADMIN_TOKEN,
      RAIL_SANDBOX_LATENCY_MS: '20',
      RAIL_SANDBOX_DELAY_MS: '200',
      PAYOUT_POLL_INTERVAL_MS: '100',
    },
    'dashboard-bench',
  );
  const stack = r.stack;
  const t0 = Date.now();
  const { paidTrxId, merchantId } = await seed(prisma, stack, r.receiver.url);
  const merchantUser = await createDashboardUser(prisma, { merchantId });
  const operator = await createDashboardUser(prisma);
  // An operator action, so the audit log has a row: a merchant created from the console's API.
  const op = await signInDashboard(stack.internalUrl, operator);
  const created = await fetch(`${stack.internalUrl}/console/api/merchants`, {
    method: 'POST',
    headers: { ...op.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Toko Bench Console' }),
  });
  if (!created.ok) throw new Error(`console merchant create answered ${created.status}: ${await created.text()}`);
  console.log(
    `seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: merchant ${merchantId} with ${PAYINS} paid pay-ins, a settlement, a payout, webhook deliveries; a dead letter; an audited operator action`,
  );

  r.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const browser = r.browser;
  const dashboardUrl = `${stack.gatewayUrl}/dashboard/`;
  const consoleUrl = `${stack.internalUrl}/console/`;
  const merchant = await signIn(browser, dashboardUrl, merchantUser.email, [
    'Overview',
    'Pay-ins',
    'Payouts',
    'Reconciliation',
    'Developers',
  ]);
  const consoleSession = await signIn(browser, consoleUrl, operator.email, [
    'Merchants',
    'Settlements',
    'Dead letters',
    'Webhook deliveries',
    'Audit log',
  ]);
  const pages = pageSpecs(paidTrxId, merchant.routes, consoleSession.routes);
  const cookiesFor = (p: PageSpec) =>
    p.signedIn ? (p.app === 'merchant' ? merchant.cookies : consoleSession.cookies) : [];
  const gatewayUrlOf = (p: PageSpec) => `${p.app === 'merchant' ? dashboardUrl : consoleUrl}${p.route}`;

  // Warm-up, not counted: one load of each page on the gateway (recording its API answers for the floor), then on the floor.
  const recordings = new Map<string, Map<string, Recorded>>();
  for (const p of pages) {
    const recorded = new Map<string, Recorded>();
    await load(browser, gatewayUrlOf(p), p, cookiesFor(p), recorded);
    recordings.set(p.name, recorded);
  }
  r.bare = await startBareServer(join(repoRoot(), 'dist', 'apps', 'dashboard'), recordings);
  const bare = r.bare;
  const bareUrlOf = (p: PageSpec) => `${bare.url}/${p.app === 'merchant' ? 'dashboard' : 'console'}/${p.route}`;
  const floorLoad = (p: PageSpec) => {
    bare.page = p.name;
    return load(browser, bareUrlOf(p), p, cookiesFor(p));
  };
  for (const p of pages) await floorLoad(p);

  const gateway = new Map<string, Sample[]>(pages.map((p) => [p.name, []]));
  const floor = new Map<string, Sample[]>(pages.map((p) => [p.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const p of pages) {
      // Alternating which goes first, so neither always follows the other.
      if (round % 2 === 0) {
        gateway.get(p.name)?.push(await load(browser, gatewayUrlOf(p), p, cookiesFor(p)));
        floor.get(p.name)?.push(await floorLoad(p));
      } else {
        floor.get(p.name)?.push(await floorLoad(p));
        gateway.get(p.name)?.push(await load(browser, gatewayUrlOf(p), p, cookiesFor(p)));
      }
    }
  }
  if (offHost.length)
    throw new Error(`pages asked for hosts other than 127.0.0.1: ${[...new Set(offHost)].join(', ')}`);
  if (pageErrors.length) throw new Error(`pages threw:\n${pageErrors.join('\n')}`);
  if (stack.unexpectedExits.length)
    throw new Error(`services exited during the run: ${JSON.stringify(stack.unexpectedExits)}`);

  const ms = (n: number) => Math.round(n);
  const kb = (n: number) => (n / 1024).toFixed(1);
  const stats = (samples: Sample[], key: 'renderMs' | 'dataMs') => {
    const values = samples
      .map((s) => s[key])
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    return values.length ? { p50: percentile(values, 50), p95: percentile(values, 95) } : undefined;
  };
  const rows = pages.map((p) => {
    const g = gateway.get(p.name) as Sample[];
    const f = floor.get(p.name) as Sample[];
    const render = stats(g, 'renderMs') as { p50: number; p95: number };
    const floorRender = stats(f, 'renderMs') as { p50: number; p95: number };
    const data = stats(g, 'dataMs');
    const floorData = stats(f, 'dataMs');
    const js = g[0].js;
    const jsBytes = js.reduce((n, s) => n + s.bytes, 0);
    const jsGzip = js.reduce((n, s) => n + s.gzip, 0);
    // The floor is only a floor if it sends the same page: the same scripts, byte for byte.
    const floorJs = f[0].js.reduce((n, s) => n + s.bytes, 0);
    if (floorJs !== jsBytes)
      throw new Error(`${p.name}: the floor sent ${floorJs} bytes of JavaScript, the gateway ${jsBytes}`);
    return {
      page: p.name,
      renderP50ms: ms(render.p50),
      renderP95ms: ms(render.p95),
      floorRenderP50ms: ms(floorRender.p50),
      floorRenderP95ms: ms(floorRender.p95),
      dataP50ms: data ? ms(data.p50) : '–',
      dataP95ms: data ? ms(data.p95) : '–',
      floorDataP50ms: floorData ? ms(floorData.p50) : '–',
      jsFiles: js.length,
      jsKB: kb(jsBytes),
      jsGzipKB: kb(jsGzip),
      render: render.p95 < TARGET_FIRST_RENDER_MS ? 'met' : 'MISSED',
      js: jsGzip < TARGET_JS_GZIP_BYTES ? 'met' : 'MISSED',
    };
  });
  const all = (m: Map<string, Sample[]>) =>
    [...m.values()]
      .flat()
      .map((s) => s.renderMs)
      .sort((a, b) => a - b);
  const allGateway = all(gateway);
  const allFloor = all(floor);
  console.log(
    `\nChromium ${browser.version()}; ${ROUNDS} cold loads per page, each in a fresh context; floor = the same page from a bare node:http server (same dist files, the API answers replayed), loaded alternately; ` +
      `p95 of fewer than 20 loads is the slowest; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (the machine is shared: expect noise)`,
  );
  recordNumbers('browser', {
    chromium: browser.version(),
    loadAverageStart: Number(loadBefore.toFixed(1)),
    loadAverageEnd: Number(loadavg()[0].toFixed(1)),
  });
  printResults(
    `dashboard and console pages, first render and data in ms, JavaScript per page (targets: first render p95 < ${TARGET_FIRST_RENDER_MS} ms, JS < ${TARGET_JS_GZIP_BYTES / 1024} KB gzip)`,
    rows,
  );
  printResults('dashboard, every page together', [
    {
      loads: allGateway.length,
      renderP50ms: ms(percentile(allGateway, 50)),
      renderP95ms: ms(percentile(allGateway, 95)),
      floorRenderP50ms: ms(percentile(allFloor, 50)),
      floorRenderP95ms: ms(percentile(allFloor, 95)),
      overFloorP50ms: ms(percentile(allGateway, 50) - percentile(allFloor, 50)),
      renderMet: `${rows.filter((x) => x.render === 'met').length}/${rows.length} pages`,
      jsMet: `${rows.filter((x) => x.js === 'met').length}/${rows.length} pages`,
    },
  ]);
}

/**
 * The bench merchant through the real paths: pay-ins generated and paid by the sandbox payer over
 * HTTP (each with a callback URL on the local receiver), settled, one payout through the sandbox
 * rail; and a dead letter on the stack's bus, archived by the workers.
 */
async function seed(
  prisma: PrismaClient,
  stack: LocalStack,
  notifyUrl: string,
): Promise<{ merchantId: number; paidTrxId: string }> {
  const { merchant, token, admin } = await createMerchant(prisma, { name: 'Toko Bench Dashboard' });
  await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
  const api = async (path: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { status: boolean; data?: Record<string, unknown> };
    if (!res.ok || !json.status) throw new Error(`seed: ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data ?? {};
  };
  const trxIds = Array.from({ length: PAYINS }, (_, i) => `DASH-BENCH-${i + 1}`);
  for (const [i, merchantTrxId] of trxIds.entries()) {
    await api('payin/qris/generate', { merchantTrxId, amount: 50_000 + i * 10_000, notifyUrl });
    await api('payin/qris/sandbox/pay', { merchantTrxId, issuer: 'DANA' });
  }
  await waitFor(
    async () =>
      (await prisma.payin.count({ where: { merchantId: merchant.id, ledgerEventId: { not: null } } })) === PAYINS,
    30_000,
    'the ledger recording the pay-ins',
  );
  await new SettlementPlanner(prisma).plan(merchant.id, new Date());
  await waitFor(
    async () => ((await prisma.balance.findUnique({ where: { merchantId: merchant.id } }))?.available ?? 0n) > 0n,
    30_000,
    'the settlement credited',
  );
  const inquiry = await api('disbursement/account-inquiry', {
    merchantTrxId: 'DASH-BENCH-PO-1',
    accountNo: '1234567890',
    bankCode: 'BCA',
    amount: 20_000,
  });
  const { merchantTrxId, platformTrxId, accountNo, accountName, bankCode, amount } = inquiry;
  await api('disbursement/transfer', {
    merchantTrxId,
    platformTrxId,
    accountNo,
    accountName,
    bankCode,
    amount,
    notifyUrl,
  });
  await waitFor(
    async () => (await prisma.webhookDelivery.count({ where: { merchantId: merchant.id } })) >= PAYINS,
    30_000,
    'the pay-ins’ webhook deliveries',
  );

  const bus = {
    kind: 'redis-streams' as const,
    redisUrl: BENCH_REDIS_URL,
    keyPrefix: stack.bus.keyPrefix,
    partitions: 12,
  };
  const transport = createTransport(bus);
  try {
    // A valid pay-in command dead-lettered (as the browser test does), for a merchant of its own.
    const other = await createMerchant(prisma, { name: 'Toko Bench Replay' });
    const headers = {
      [DLQ_HEADERS.error]: 'terminating connection due to administrator command',
      [DLQ_HEADERS.fault]: 'unknown',
      [DLQ_HEADERS.originalTopic]: Topic.LedgerCommands,
      [DLQ_HEADERS.originalId]: '3:1700000000000-0',
      [DLQ_HEADERS.group]: 'ledger',
      [DLQ_HEADERS.deliveryCount]: '10',
      [DLQ_HEADERS.at]: new Date().toISOString(),
    };
    const command = ledgerCommand.recordPayin(
      other.merchant.id,
      '00000000-0000-4000-8000-000000000001',
      parseAmount(20000),
      parseAmount(200),
    );
    await transport.publish(deadLetterTopic(Topic.LedgerCommands), [
      { key: String(other.merchant.id), value: JSON.stringify(command), headers },
    ]);
  } finally {
    await transport.close();
  }
  await waitFor(
    async () =>
      (
        (await (
          await fetch(`${stack.internalUrl}/ops/dead-letters?topic=${Topic.LedgerCommands}`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).json()) as { data: unknown[] }
      ).data.length > 0,
    30_000,
    'the dead letter archived',
  );
  return { merchantId: merchant.id, paidTrxId: trxIds[0] };
}

/** Signs in through the page (as a person does) and returns the session's cookies and the navigation's hash routes. */
async function signIn(
  browser: Browser,
  url: string,
  email: string,
  nav: string[],
): Promise<{ cookies: Cookie[]; routes: Record<string, string> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  context.setDefaultTimeout(LOAD_TIMEOUT_MS);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: nav[0], exact: true }).waitFor();
    const routes: Record<string, string> = {};
    for (const name of nav) {
      const href = (await page.getByRole('link', { name, exact: true }).getAttribute('href')) ?? '';
      if (!href.includes('#')) throw new Error(`navigation link "${name}" has no hash route (href ${href})`);
      routes[name] = href.slice(href.indexOf('#'));
    }
    return { cookies: await context.cookies(), routes };
  } finally {
    await context.close();
  }
}

const offHost: string[] = [];
const pageErrors: string[] = [];

/**
 * One cold load of `url` in a fresh context: the first-render and data watchers installed before
 * the page's scripts, then, once both are seen and the network is idle, the scripts' bytes (read
 * after the timing, so reading them costs the page nothing). With `record`, the page's API
 * answers are kept (the floor replays them).
 */
async function load(
  browser: Browser,
  url: string,
  spec: PageSpec,
  cookies: Cookie[],
  record?: Map<string, Recorded>,
): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    if (cookies.length) await context.addCookies(cookies);
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const scripts: Response[] = [];
    const answers: Promise<void>[] = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (
        (u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') &&
        u.hostname !== '127.0.0.1'
      )
        offHost.push(u.host);
    });
    page.on('pageerror', (err) => pageErrors.push(`${spec.name}: ${err.message}`));
    page.on('response', (res) => {
      const u = new URL(res.url());
      if (u.origin !== origin) return;
      const type = res.headers()['content-type'] ?? '';
      if (type.includes('javascript') || u.pathname.endsWith('.js')) scripts.push(res);
      if (record && /^\/(dashboard|console)\/api\//.test(u.pathname)) {
        answers.push(
          res.body().then(
            (body) =>
              void record.set(u.pathname + u.search, {
                status: res.status(),
                contentType: type || 'application/json',
                body,
              }),
          ),
        );
      }
    });
    await page.addInitScript({ content: firstRenderWatcher(spec.render, FIRST_RENDER) });
    if (spec.data) await page.addInitScript({ content: firstRenderWatcher(spec.data, DATA_READY) });
    await page.goto(url);
    const marks = [FIRST_RENDER, ...(spec.data ? [DATA_READY] : [])];
    await page
      .waitForFunction(
        (names) => names.every((n) => (globalThis as unknown as Record<string, number | undefined>)[n] !== undefined),
        marks,
        { timeout: LOAD_TIMEOUT_MS },
      )
      .catch(() => {
        throw new Error(`${spec.name}: ${JSON.stringify([spec.render, spec.data])} never became visible at ${url}`);
      });
    const [renderMs, dataMs] = await page.evaluate(
      (names) => names.map((n) => (globalThis as unknown as Record<string, number>)[n]),
      marks,
    );
    await page.waitForLoadState('networkidle');
    const js = await Promise.all(
      scripts.map(async (res) => {
        const body = await res.body();
        return { url: new URL(res.url()).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
      }),
    );
    await Promise.all(answers);
    return { renderMs, dataMs, js };
  } finally {
    await context.close();
  }
}

interface BareServer {
  url: string;
  /** The page being loaded: whose recorded API answers are replayed */
  page: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * The floor: a bare node:http server on 127.0.0.1 with the built bundles in memory (the same
 * files the gateway serves, at the same paths) and the current page's recorded API answers. No
 * security headers, routing, session or database: what is left is the browser, the network and
 * the bundle.
 */
async function startBareServer(
  dashboardDir: string,
  recordings: Map<string, Map<string, Recorded>>,
): Promise<BareServer> {
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const [prefix, folder] of [
    ['/dashboard/', 'merchant'],
    ['/console/', 'console'],
  ] as const) {
    const root = join(dashboardDir, folder);
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const file = join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else
          files.set(prefix + relative(root, file).split('\\').join('/'), {
            type: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
            body: readFileSync(file),
          });
      }
    };
    walk(root);
    const index = files.get(`${prefix}index.html`);
    if (!index) throw new Error(`no built bundle in ${root} (npm run build)`);
    files.set(prefix, index);
  }
  const self: BareServer = { url: '', page: '', close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (/^\/(dashboard|console)\/api\//.test(u.pathname)) {
      const recorded = recordings.get(self.page);
      // The same call as on the warm-up load, or (a query made of the time of the load) the same path.
      const answer =
        recorded?.get(u.pathname + u.search) ??
        [...(recorded?.entries() ?? [])].find(([key]) => key.split('?')[0] === u.pathname)?.[1];
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            status: false,
            code: 'NOT_RECORDED',
            message: `${u.pathname + u.search} not recorded for ${self.page}`,
          }),
        );
        return;
      }
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length });
      res.end(answer.body);
      return;
    }
    const file = files.get(u.pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  self.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return self;
}

runBench(main);
