import { Agent, request } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase } from '@pay/testing';
import { sampleCpu } from '../lib/cpu';
import { percentile, printResults, recordNumbers } from '../lib/report';
import { runBench, startBenchStack } from '../lib/harness';

/**
 * One merchant floods GET /api/v1/payin/balance at the gateway's maximum rate (closed loop,
 * many connections) while another reads its balance at a steady rate: the other merchant's
 * p50/p99 idle and under the flood, and the flooder's answers (200, 429, other, timeouts).
 * Both merchants have the default limits. Target: the other merchant's p99 under the flood
 * <= 2x its idle p99, and the flooder gets 429s, not timeouts.
 * A fourth argument floods at that fixed rate instead (open loop, e.g. 900 as in issue #14).
 * RATE_LIMIT_ENABLED=false in the environment runs the same without limits, for comparison;
 * LOG_LEVEL=info runs it with the access log on (the services' logs go to tmp/flood-logs).
 *
 * Idle and flood alternate every PHASE_MS (a steady request counts in the phase it started in),
 * so both see the same background load of a shared machine rather than two different minutes.
 * The flood runs in a worker thread: on the steady merchant's event loop, its thousands of
 * callbacks a second would delay the steady answers' timing, and the bench would measure itself.
 * The CPU each process used is printed (cores: CPU seconds per second, over the whole run).
 * Usage: npm run build && npm run bench -- flood [seconds of each phase=20] [flood connections=64] [steady rps=20] [flood rps=max]
 */
const [SECONDS = 20, C = 64, STEADY_RPS = 20, FLOOD_RPS = 0] = process.argv.slice(2).map(Number);
const TIMEOUT_MS = 5_000;
const PHASE_MS = 2_000;
/** The opening of each flood phase in which the flooder's full bucket (its permitted burst) is spent. */
const BURST_MS = 500;

type Outcome = { status: number | 'timeout' | 'error'; ms: number; at: number };

/** Whether the flood is on at `t`: the odd PHASE_MS windows after `start`. */
const flooding = (start: number, t: number) => Math.floor((t - start) / PHASE_MS) % 2 === 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function get(url: string, token: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const at = Date.now();
    const t = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t) / 1e6;
    const req = request(url, { agent, headers: { token }, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: ms(), at }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: err.message === 'timeout' ? 'timeout' : 'error', ms: ms(), at }));
    req.end();
  });
}

/** `rps` requests a second on a schedule (open loop) from `start` to `until`, whatever the answers take; `when` picks the instants. */
async function scheduled(
  url: string,
  token: string,
  start: number,
  until: number,
  rps: number,
  sockets: number,
  when: (t: number) => boolean = () => true,
): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const pending: Promise<Outcome>[] = [];
  for (let at = start; at < until; at += 1000 / rps) {
    if (!when(at)) continue;
    if (at > Date.now()) await sleep(at - Date.now());
    pending.push(get(url, token, agent));
  }
  const outcomes = await Promise.all(pending);
  agent.destroy();
  return outcomes;
}

function latencies(outcomes: Outcome[]): { p50: number; p99: number; max: number; ok: number; notOk: number } {
  const ms = outcomes
    .filter((o) => o.status === 200)
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  return {
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms[ms.length - 1] ?? Number.NaN,
    ok: ms.length,
    notOk: outcomes.length - ms.length,
  };
}

/** The flooder, in its own thread: C connections, each sending its next request as soon as the last is answered (or FLOOD_RPS a second), while the flood is on. */
async function flood(url: string, token: string, start: number, until: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const on = (t: number) => flooding(start, t);
  if (FLOOD_RPS > 0) {
    for (const { status } of await scheduled(url, token, start, until, FLOOD_RPS, C, on))
      counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }
  const agent = new Agent({ keepAlive: true, maxSockets: C });
  await Promise.all(
    Array.from({ length: C }, async () => {
      for (let now = Date.now(); now < until; now = Date.now()) {
        if (!on(now)) {
          await sleep(PHASE_MS - ((now - start) % PHASE_MS));
          continue;
        }
        const { status } = await get(url, token, agent);
        counts[status] = (counts[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return counts;
}

async function main(): Promise<void> {
  if (!isMainThread) {
    const { url, token, start, until } = workerData as { url: string; token: string; start: number; until: number };
    parentPort?.postMessage(await flood(url, token, start, until));
    return;
  }
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 2);
  const stack = await startBenchStack(
    databaseUrl,
    {
      RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED ?? 'true',
      RATE_LIMIT_READ_CONCURRENCY: process.env.RATE_LIMIT_READ_CONCURRENCY ?? '10',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    'flood',
  );
  try {
    const flooder = await createMerchant(prisma, { name: 'Flooder' });
    const other = await createMerchant(prisma, { name: 'Other' });
    const url = `${stack.gatewayUrl}/api/v1/payin/balance`;
    // Warm-up: connections, prepared statements, JIT.
    await scheduled(url, other.token, Date.now(), Date.now() + 2_000, STEADY_RPS, 32);

    const start = Date.now() + 100;
    const until = start + 2 * SECONDS * 1000;
    const cpuBefore = sampleCpu(stack);
    const worker = new Worker(__filename, {
      argv: process.argv.slice(2),
      workerData: { url, token: flooder.token, start, until },
    });
    const floodDone = new Promise<Record<string, number>>((resolve, reject) =>
      worker.once('message', resolve).once('error', reject),
    );
    const [answers, mix] = await Promise.all([scheduled(url, other.token, start, until, STEADY_RPS, 32), floodDone]);
    const cpuAfter = sampleCpu(stack);

    const idle = latencies(answers.filter((o) => !flooding(start, o.at)));
    const flooded = latencies(answers.filter((o) => flooding(start, o.at)));
    // Each flood phase opens with a full bucket: the flooder may send its whole limit at once (the burst GCRA allows
    // any merchant), then only refusals and one request per slot. Shown apart, so the burst is not hidden in the mix.
    const opening = (o: Outcome) => (o.at - start) % PHASE_MS < BURST_MS;
    const burst = latencies(answers.filter((o) => flooding(start, o.at) && opening(o)));
    const steady = latencies(answers.filter((o) => flooding(start, o.at) && !opening(o)));
    const ratio = flooded.p99 / idle.p99;
    const steadyRatio = steady.p99 / idle.p99;
    const row = (name: string, r: typeof idle) => ({
      phase: name,
      p50ms: r.p50.toFixed(1),
      p99ms: r.p99.toFixed(1),
      maxms: r.max.toFixed(1),
      ok: r.ok,
      notOk: r.notOk,
    });
    printResults(
      `other merchant's balance at ${STEADY_RPS} req/s, idle and flood alternating every ${PHASE_MS / 1000} s`,
      [
        row('idle', idle),
        row(FLOOD_RPS > 0 ? `flood (${FLOOD_RPS} req/s)` : `flood (max rate, ${C} connections)`, flooded),
        row(`  of which the first ${BURST_MS} ms (the flooder's burst)`, burst),
        row('  of which the rest (steady flood)', steady),
      ],
    );
    const total = Object.values(mix).reduce((a, b) => a + b, 0);
    printResults("flooding merchant's answers", [
      {
        total,
        perSecond: Math.round(total / SECONDS),
        ok200: mix['200'] ?? 0,
        limited429: mix['429'] ?? 0,
        timeouts: mix.timeout ?? 0,
        errors: mix.error ?? 0,
        other: total - (mix['200'] ?? 0) - (mix['429'] ?? 0) - (mix.timeout ?? 0) - (mix.error ?? 0),
      },
    ]);
    const cores = Object.fromEntries(
      Object.keys(cpuAfter).map((k) => [k, Math.round((cpuAfter[k] - cpuBefore[k]) / (2 * SECONDS) / 10) / 100]),
    );
    const gatewayUsPerRequest = Math.round(((cpuAfter.gateway - cpuBefore.gateway) * 1000) / (total + answers.length));
    printResults('CPU over the run, cores (CPU s per s; postgres and redis include any other work on the machine)', [
      { ...cores, gatewayUsPerRequest },
    ]);
    console.log(
      `p99 under the steady flood / idle p99: ${steadyRatio.toFixed(2)}x (target <= 2x: ${steadyRatio <= 2 ? 'met' : 'MISSED'}); over whole flood phases, bursts included: ${ratio.toFixed(2)}x; flooder timeouts: ${mix.timeout ?? 0} (target 0)`,
    );
    recordNumbers('targets', {
      steadyFloodP99OverIdle: Number(steadyRatio.toFixed(2)),
      met: steadyRatio <= 2 ? 'met' : 'MISSED',
      wholeFloodP99OverIdle: Number(ratio.toFixed(2)),
      flooderTimeouts: mix.timeout ?? 0,
    });
  } finally {
    await stack.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
