import { Agent, request } from 'node:http';
import {
  createPgPool,
  createPrismaClient,
  dropDatabase,
  encodeCursor,
  HistoryRepository,
  type ListKind,
  type ListWindow,
  type SqlClient,
  type SqlQuery,
} from '@pay/persistence';
import { createMerchant, createTestDatabase } from '@pay/testing';
import { type LocalStack } from '@pay/devstack';
import type { Pool } from 'pg';
import { BENCH_RATE_LIMITS, runBench, startBenchStack } from '../lib/harness';
import { seedLists } from '../seeds/lists.seed';
import { percentile, printResults, recordNumbers } from '../lib/report';

/**
 * The merchant history lists at scale: one merchant with ROWS pay-ins, disbursements and ledger
 * events (a million each by default), three other merchants with a tenth as many. Each page is
 * timed over HTTP through the gateway (token, rate limit, validation, presenters: what a merchant
 * sees) and as the repository's statement alone; both against the 20 ms target. Pages: the first,
 * deep ones (a cursor half-way and one 95 % down the list), and filtered ones (status, a range
 * of a tenth of the history half a year back, both). The plan of each statement (EXPLAIN ANALYZE) shows the index used.
 * Usage: npm run build && npm run bench -- lists [rows=1000000] [requests=200]
 */
const [ROWS = 1_000_000, REQUESTS = 200] = process.argv.slice(2).map(Number);
const OTHER_MERCHANTS = 3;
const TARGET_MS = 20;

interface Scenario {
  list: ListKind;
  name: string;
  path: string;
  query: Record<string, string>;
  window: Omit<ListWindow, 'merchantId'>;
  status?: string;
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench_lists');
  const prisma = createPrismaClient(databaseUrl, 2);
  const pool = createPgPool(databaseUrl, 2);
  let stack: LocalStack | undefined;
  try {
    const { merchant, token, admin } = await createMerchant(prisma);
    await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
    const t0 = Date.now();
    const client = await pool.connect();
    try {
      await client.query(`SET work_mem = '256MB'`);
      await seedLists(client, merchant.id, ROWS, 0);
      for (let i = 0; i < OTHER_MERCHANTS; i++) {
        const other = await createMerchant(prisma);
        await seedLists(client, other.merchant.id, Math.floor(ROWS / 10), ROWS + i * ROWS);
      }
      await client.query(`SELECT setval('ledger_events_id_seq', (SELECT max(id) FROM ledger_events))`);
      await client.query('VACUUM ANALYZE');
    } finally {
      client.release();
    }
    const loadSeconds = ((Date.now() - t0) / 1000).toFixed(0);
    console.log(
      `loaded ${ROWS} rows per list for the merchant and ${Math.floor(ROWS / 10)} for each of ${OTHER_MERCHANTS} others in ${loadSeconds} s`,
    );
    recordNumbers('loaded', { rows: ROWS, otherMerchants: OTHER_MERCHANTS, seconds: Number(loadSeconds) });

    const scenarios = await scenariosFor(pool, merchant.id);
    stack = await startBenchStack(databaseUrl);
    const rows: Record<string, string | number>[] = [];
    const plans: Record<string, string | number>[] = [];
    for (const s of scenarios) {
      const http = await timeHttp(
        `${stack.gatewayUrl}${s.path}?${new URLSearchParams({ limit: '20', ...s.query })}`,
        token,
      );
      const raw = await timeRaw(pool, merchant.id, s);
      rows.push({
        list: s.list,
        page: s.name,
        httpP50ms: http.p50.toFixed(2),
        httpP95ms: http.p95.toFixed(2),
        rawP50ms: raw.p50.toFixed(2),
        rawP95ms: raw.p95.toFixed(2),
        target: `${TARGET_MS} ms`,
        met: http.p95 <= TARGET_MS ? 'yes' : 'NO',
        errors: http.errors,
      });
      plans.push({ list: s.list, page: s.name, ...(await explain(pool, merchant.id, s)) });
    }
    printResults(
      `history lists, one merchant with ${ROWS} rows per list (${REQUESTS} sequential requests per page, limit 20; p95 target ${TARGET_MS} ms)`,
      rows,
    );
    printResults('plans (EXPLAIN ANALYZE of the repository statement)', plans);
  } finally {
    await stack?.stop();
    await pool.end();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

/** The pages to time; deep cursors are positions of real rows half-way and 99 % down each list. */
async function scenariosFor(pool: Pool, merchantId: number): Promise<Scenario[]> {
  const positionAt = async (table: string, createdAt: string, where: string, offset: number) => {
    const { rows } = await pool.query<{ at: Date; id: string }>(
      `SELECT ${createdAt} AS at, id::text AS id FROM ${table} WHERE merchant_id = $1 ${where} ORDER BY ${createdAt} DESC, id DESC OFFSET $2 LIMIT 1`,
      [merchantId, offset],
    );
    return { createdAt: rows[0].at, id: rows[0].id };
  };
  const now = Date.now();
  // A tenth of the history, from 60 % to 50 % of its span back (for a million rows: 35 days, about 200 days ago).
  const span = ROWS * 30_000;
  const from = new Date(now - 0.6 * span);
  const to = new Date(now - 0.5 * span);
  const range = { from: from.toISOString(), to: to.toISOString() };
  const lists: { list: ListKind; path: string; table: string; createdAt: string; where: string; status?: string }[] = [
    {
      list: 'movement',
      path: '/api/v1/balance/movements',
      table: 'ledger_events',
      createdAt: 'occurred_at',
      where: '',
    },
    {
      list: 'payin',
      path: '/api/v1/payin/list',
      table: 'payins',
      createdAt: 'created_at',
      where: '',
      status: 'failed',
    },
    {
      list: 'disbursement',
      path: '/api/v1/disbursement/list',
      table: 'disbursements',
      createdAt: 'created_at',
      where: `AND status <> 'refused'`,
      status: 'pending',
    },
  ];
  const scenarios: Scenario[] = [];
  for (const l of lists) {
    const half = await positionAt(l.table, l.createdAt, l.where, Math.floor(ROWS / 2));
    const end = await positionAt(l.table, l.createdAt, l.where, Math.floor(ROWS * 0.95));
    scenarios.push(
      { list: l.list, name: 'first', path: l.path, query: {}, window: { limit: 21 } },
      {
        list: l.list,
        name: 'deep (50 %)',
        path: l.path,
        query: { cursor: encodeCursor(l.list, half) },
        window: { limit: 21, after: half },
      },
      {
        list: l.list,
        name: 'deep (95 %)',
        path: l.path,
        query: { cursor: encodeCursor(l.list, end) },
        window: { limit: 21, after: end },
      },
      { list: l.list, name: 'range (10 %)', path: l.path, query: range, window: { limit: 21, from, to } },
    );
    if (l.status) {
      scenarios.push(
        {
          list: l.list,
          name: `status=${l.status}`,
          path: l.path,
          query: { status: l.status },
          window: { limit: 21 },
          status: l.status,
        },
        {
          list: l.list,
          name: `status=${l.status} + range`,
          path: l.path,
          query: { status: l.status, ...range },
          window: { limit: 21, from, to },
          status: l.status,
        },
      );
    }
  }
  return scenarios;
}

function read(repo: HistoryRepository, merchantId: number, s: Scenario): Promise<unknown[]> {
  const w = { merchantId, ...s.window };
  if (s.list === 'movement') return repo.movements(w);
  if (s.list === 'payin') return repo.payins(w, s.status as 'failed' | undefined);
  return repo.disbursements(w, s.status as 'pending' | undefined);
}

async function timeRaw(pool: Pool, merchantId: number, s: Scenario): Promise<{ p50: number; p95: number }> {
  const repo = new HistoryRepository(pool);
  for (let i = 0; i < 20; i++) await read(repo, merchantId, s);
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = process.hrtime.bigint();
    const rows = await read(repo, merchantId, s);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (rows.length === 0) throw new Error(`${s.list} ${s.name}: empty page`);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

async function timeHttp(url: string, token: string): Promise<{ p50: number; p95: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const one = () =>
    new Promise<{ ms: number; ok: boolean }>((resolve) => {
      const t = process.hrtime.bigint();
      const req = request(url, { agent, headers: { token } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ok =
            res.statusCode === 200 &&
            (JSON.parse(Buffer.concat(chunks).toString()) as { data: { items: unknown[] } }).data.items.length > 0;
          resolve({ ms: Number(process.hrtime.bigint() - t) / 1e6, ok });
        });
      });
      req.on('error', () => resolve({ ms: 0, ok: false }));
      req.end();
    });
  for (let i = 0; i < 20; i++) await one();
  const ms: number[] = [];
  let errors = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await one();
    if (r.ok) ms.push(r.ms);
    else errors++;
  }
  agent.destroy();
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), errors };
}

/** The statement's plan, summarised: each node with its index, rows and time. */
async function explain(pool: Pool, merchantId: number, s: Scenario): Promise<Record<string, string>> {
  let plan: PlanNode | undefined;
  const explaining: SqlClient = {
    query: async <T>(q: SqlQuery) => {
      const { rows } = await pool.query<{ 'QUERY PLAN': { Plan: PlanNode; 'Execution Time': number }[] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`,
        q.values,
      );
      const [top] = rows[0]['QUERY PLAN'];
      plan = { ...top.Plan, 'Execution Time': top['Execution Time'] };
      return [] as T[];
    },
    execute: () => Promise.resolve(0),
  };
  await read(new HistoryRepository(explaining), merchantId, s);
  if (!plan) throw new Error('no plan');
  return { executionMs: (plan['Execution Time'] ?? 0).toFixed(2), nodes: summarise(plan).join(' > ') };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Execution Time'?: number;
  Plans?: PlanNode[];
}

function summarise(node: PlanNode): string[] {
  const own = `${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''} (${node['Actual Rows']} rows${(node['Actual Loops'] ?? 1) > 1 ? ` x${node['Actual Loops']}` : ''})`;
  const children = (node.Plans ?? []).map((c) => summarise(c).join(' > '));
  return children.length <= 1 ? [own, ...children] : [`${own} [${children.join(' | ')}]`];
}

runBench(main);
