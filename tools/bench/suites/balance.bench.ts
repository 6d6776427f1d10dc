import { spawn } from 'node:child_process';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, fundMerchant, repoRoot } from '@pay/testing';
import { freePort, type LocalStack } from '@pay/devstack';
import {
  backendsMs,
  cpuMsOf,
  cpuPerUnit,
  type CpuSample,
  DATABASE_BACKENDS_SQL,
  sampleBackends,
  sampleCpu,
} from '../lib/cpu';
import { type Load, load as httpLoad } from '../lib/http-load';
import { median, percentile, printResults, recordNumbers } from '../lib/report';
import { BENCH_RATE_LIMITS, runBench, startBenchStack } from '../lib/harness';
import { benchArgs, historyMode } from '../lib/history-mode';
import { describeLoad, loadHistory, type HistoryLoad } from '../seeds/history.seed';
import { cloneHistoryDatabase, keptHistoryDatabase } from '../lib/history-db';

/**
 * GET /api/v1/payin/balance (token auth + live read) against the gateway process, beside a
 * bare Node http server in its own process doing the same balance SELECT: requests per second
 * and latency, and the ratio. Target (issue #15): >= 0.6x the bare baseline.
 * History mode (--history or BENCH_HISTORY=1): the same again on a database holding a realistic
 * history (tools/bench/seeds/history.seed.ts; the bench's merchant is one of its 10,000), then both side by side.
 * BENCH_HISTORY_DB=<name> clones a history loaded once and kept (npm run bench -- keep-history).
 * Each server first takes the same load for `warm-up` seconds, not measured: with 3 s the gateway's
 * first round ran at 0.37–0.41x in seven runs of seven, against 0.44–0.50 in its later rounds (V8
 * still tiering its hot code up and sizing its heap), and a median of three rounds took that in;
 * after 10 s its first round is like the others. Then
 * the two take turns for `rounds` rounds of `seconds` each: the ratio printed is the median of
 * the rounds' ratios, so a machine whose speed drifts during the run (a shared host) moves both
 * sides of a round and not the figure.
 * Usage: npm run build && npm run bench -- balance [seconds=10] [concurrency=32] [warm-up seconds=10] [rounds=3] [--history]
 */
const [SECONDS = 10, C = 32, WARMUP_SECONDS = 10, ROUNDS = 3] = benchArgs().map(Number);

interface Round {
  bare: Load;
  gateway: Load;
}

const BASELINE = `
const http = require('node:http'); const { Pool } = require('pg');
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
http.createServer(async (req, res) => {
  // Prepared, as the gateway sends it (DATABASE_PREPARED_STATEMENTS): the same statement on the same driver.
  const { rows } = await pool.query({ name: 'balance', text: 'SELECT available, pending FROM balances WHERE merchant_id = $1', values: [Number(process.env.MERCHANT_ID)] });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: true, data: { balance: { available: rows[0].available, pending: rows[0].pending } } }));
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send && process.send('ready'));
`;

const load = (url: string, headers: Record<string, string>, seconds = SECONDS): Promise<Load> =>
  httpLoad(url, headers, seconds, C);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** One server's rounds as one row: requests per second over all of them, latency percentiles over every request. */
function row(target: string, loads: Load[], ratio: string): Rows[number] {
  const latencies = loads.flatMap((l) => l.latencies).sort((a, b) => a - b);
  const rps = Math.round(sum(loads.map((l) => l.requests)) / (loads.length * SECONDS));
  const ms = (p: number) => percentile(latencies, p).toFixed(1);
  return { target, rps, p50ms: ms(50), p95ms: ms(95), p99ms: ms(99), errors: sum(loads.map((l) => l.errors)), ratio };
}

type Rows = Record<string, string | number>[];

async function main(): Promise<void> {
  const empty = await measure(false);
  printResults(
    `balance GET: ${ROUNDS} alternating rounds of ${SECONDS} s (ratio: the median of the rounds')`,
    empty.rows,
  );
  printResults('balance GET, round by round', empty.roundRows);
  printResults(
    'CPU ms per gateway balance request, by process (bareServer: the bare server process, per request of its own run)',
    empty.cpuRows,
  );
  if (!historyMode()) return;
  const history = await measure(true);
  console.log(`\n${describeLoad(history.load as HistoryLoad)}`);
  recordNumbers('history loaded', { ...(history.load as HistoryLoad) });
  printResults('balance GET, on the history', history.rows);
  printResults('balance GET, on the history, round by round', history.roundRows);
  printResults('CPU ms per gateway balance request, by process, on the history', history.cpuRows);
  printResults(
    'balance: empty database vs history (target: history >= 0.8x empty)',
    empty.rows.map((e, i) => ({
      target: e.target,
      emptyRps: e.rps,
      historyRps: history.rows[i].rps,
      ratio: (Number(history.rows[i].rps) / Number(e.rps)).toFixed(2),
      emptyP50ms: e.p50ms,
      historyP50ms: history.rows[i].p50ms,
      emptyP99ms: e.p99ms,
      historyP99ms: history.rows[i].p99ms,
    })),
  );
}

/** One run (the bare baseline and the gateway, taking turns) on a new database, empty or first loaded with the history. */
async function measure(
  withHistory: boolean,
): Promise<{ rows: Rows; roundRows: Rows; cpuRows: Rows; load?: HistoryLoad }> {
  const kept = withHistory ? keptHistoryDatabase() : undefined;
  const clone = kept ? await cloneHistoryDatabase(kept, 1) : undefined;
  const databaseUrl = clone?.databaseUrl ?? (await createTestDatabase('pay_bench'));
  const prisma = createPrismaClient(databaseUrl, 2);
  let stack: LocalStack | undefined;
  const port = await freePort();
  try {
    let merchant = { id: clone?.merchants[0].id as number };
    let token = clone?.merchants[0].token as string;
    if (!clone) {
      const created = await createMerchant(prisma);
      ({ merchant, token } = created);
      // The bench measures the gateway at full speed, not the merchant's rate limit (still checked on every request).
      await created.admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
    }
    const loaded = clone?.load ?? (withHistory ? await loadHistory(databaseUrl, [merchant.id]) : undefined);
    await fundMerchant(prisma, merchant.id, [1_000_000n]);
    // Started once the data is in place, so no service works while the history loads.
    stack = await startBenchStack(databaseUrl);
    const baseline = spawn(process.execPath, ['-e', BASELINE], {
      cwd: repoRoot(),
      env: { ...process.env, DATABASE_URL: databaseUrl, MERCHANT_ID: String(merchant.id), PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise((resolve) => baseline.once('message', resolve));
    const bareUrl = `http://127.0.0.1:${port}/`;
    const gatewayUrl = `${stack.gatewayUrl}/api/v1/payin/balance`;
    await load(bareUrl, {}, WARMUP_SECONDS);
    await load(gatewayUrl, { token }, WARMUP_SECONDS);
    // The bench database's own backends, apart from the machine's other Postgres work (cpu.ts).
    const backends = async () =>
      sampleBackends((await prisma.$queryRawUnsafe<{ pid: number }[]>(DATABASE_BACKENDS_SQL)).map((r) => r.pid));
    const rounds: Round[] = [];
    const gatewayCpu: CpuSample = {};
    let bareCpuMs = 0;
    let postgresMs = 0;
    // Alternating, each server in turn: a machine whose speed drifts moves both sides of a pair.
    for (let i = 0; i < ROUNDS; i++) {
      const bareBefore = cpuMsOf(baseline.pid as number);
      const bare = await load(bareUrl, {});
      // The bare server's own CPU, beside the gateway's: what the Nest pipeline, the token check and the limiter add.
      bareCpuMs += cpuMsOf(baseline.pid as number) - bareBefore;
      const cpuBefore = sampleCpu(stack);
      const backendsBefore = await backends();
      const gateway = await load(gatewayUrl, { token });
      const cpuAfter = sampleCpu(stack);
      for (const key of Object.keys(cpuAfter))
        gatewayCpu[key] = (gatewayCpu[key] ?? 0) + cpuAfter[key] - (cpuBefore[key] ?? 0);
      postgresMs += backendsMs(backendsBefore, await backends());
      rounds.push({ bare, gateway });
    }
    baseline.kill();
    const bareRequests = sum(rounds.map((r) => r.bare.requests));
    const gatewayRequests = sum(rounds.map((r) => r.gateway.requests));
    const ratios = rounds.map((r) => r.gateway.rps / r.bare.rps);
    const milli = (ms: number, n: number) => Math.round((ms / n) * 1000) / 1000;
    return {
      load: loaded,
      rows: [
        row(
          'bare node http + SELECT',
          rounds.map((r) => r.bare),
          '1.00',
        ),
        row(
          'gateway /api/v1/payin/balance',
          rounds.map((r) => r.gateway),
          median(ratios).toFixed(2),
        ),
      ],
      roundRows: rounds.map((r, i) => ({
        round: i + 1,
        bareRps: r.bare.rps,
        gatewayRps: r.gateway.rps,
        ratio: ratios[i].toFixed(2),
      })),
      cpuRows: [
        {
          ...cpuPerUnit({}, gatewayCpu, gatewayRequests),
          postgresBenchDb: milli(postgresMs, gatewayRequests),
          bareServer: milli(bareCpuMs, bareRequests),
        },
      ],
    };
  } finally {
    await stack?.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
