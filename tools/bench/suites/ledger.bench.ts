import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusConfig } from '@pay/bus';
import { createPrismaClient, dropDatabase, type PrismaClient, verifyLedger } from '@pay/persistence';
import {
  createMerchant,
  createTestDatabase,
  directPayoutId,
  fundMerchant,
  ledgerFor,
  ledgerCommand,
  publishLedgerCommands,
  repoRoot,
  uniqueName,
  waitFor,
} from '@pay/testing';
import { freePort, LocalStack, type StackBus } from '@pay/devstack';
import { SERVICE_NODE_FLAGS } from '@pay/platform';
import { runBench, startBenchKafka } from '../lib/harness';
import { pgbenchTps } from '../lib/pgbench';
import { median, printResults, recordNumbers } from '../lib/report';

/**
 * Ledger throughput on this machine, printed as numbers (not a test):
 *  0. the ceiling: pgbench -N on this machine's Postgres, in the same run;
 *  1. in-process: LedgerService.apply with N concurrent debits spread over M merchants, then
 *     applyBatch with the same debits in batches of 50 (what one bus partition hands over);
 *  2. through the bus: N debit commands published to Redis Streams, then to Kafka (a broker of
 *     this run's own, the kafka-init topics), each applied by one ledger process, measured until
 *     every command is decided; the ratios to pgbench -N and Kafka / Redis Streams close the run.
 *     Each bus first carries a warm-up burst (not measured) through its ledger process.
 * The merchants are funded for every debit of the run, so each one is applied (an event, its
 * journal entry, postings and account deltas), not rejected for want of balance.
 *
 * With `--against <commit>` (issue 43: this build >= 0.9x the baseline's through the bus), step 1
 * is skipped and step 2 alternates two builds' ledger processes on the same database, bus and
 * stack: the baseline's (a `git worktree` of the commit in tmp/bench/baseline-<sha>, node_modules
 * linked from this checkout, built there with `npm run build:server` once and reused) and this
 * checkout's dist/, in rounds baseline, this, baseline, this... (`--rounds`, default 3 each). Each
 * round starts that build's ledger alone (the other has left the consumer group), warms it up,
 * measures the burst and stops it; per bus it prints every round, the medians and this/baseline.
 * Usage: npm run build && npm run bench -- ledger [commands=20000] [merchants=50] [concurrency=32] [warm-up commands=5000] [--against <commit>] [--rounds 3]
 */
const { positional, against: AGAINST, rounds: ROUNDS } = parseArgs(process.argv.slice(2));
// 20,000 commands: a burst long enough to be steady (a one-second run measures start-up and the end's poll as much as the ledger).
const [N = 20_000, M = 50, C = 32, WARMUP = 5_000] = positional.map(Number);
/** What one debit takes from a balance (amount + fee), and the debits' shape */
const DEBIT_AMOUNT = 10_000_00n;
const DEBIT_FEE = 2_500_00n;
/** The through-the-bus target against the baseline build (issue 43) */
const AGAINST_TARGET = 0.9;

function parseArgs(args: string[]): { positional: string[]; against?: string; rounds: number } {
  const positional: string[] = [];
  let against: string | undefined;
  let rounds = 3;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag === '--against' || flag === '--rounds') {
      const value = inline ?? args[++i];
      if (!value) throw new Error(`${flag} needs a value`);
      if (flag === '--against') against = value;
      else rounds = Number(value);
    } else positional.push(args[i]);
  }
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds: a whole number >= 1');
  return { positional, against, rounds };
}

/** Balance for every debit the run publishes (with a margin), spread over the merchants. */
function fundingPerMerchant(): bigint {
  const debits = AGAINST ? 2 * 2 * ROUNDS * (N + WARMUP) : 2 * N + 2 * (N + WARMUP);
  return (BigInt(Math.ceil((debits * 1.1) / M)) + 10n) * (DEBIT_AMOUNT + DEBIT_FEE);
}

async function main(): Promise<void> {
  const baseline = AGAINST ? prepareBaseline(AGAINST) : undefined;
  const tps = pgbenchTps();
  console.log(`ceiling: pgbench -N, 8 clients: ${tps.toFixed(0)} transactions/s`);
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, C + 4);
  try {
    const merchants: number[] = [];
    for (let i = 0; i < M; i++) {
      const { merchant } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [fundingPerMerchant()]);
      merchants.push(merchant.id);
    }
    if (baseline) {
      await againstBaseline(prisma, merchants, databaseUrl, baseline, tps);
      return;
    }
    const ledger = ledgerFor(prisma);
    const commands = Array.from({ length: N }, (_, i) =>
      ledgerCommand.debit(merchants[i % M], directPayoutId(), DEBIT_AMOUNT, DEBIT_FEE),
    );
    const latencies: number[] = [];
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < commands.length) {
          const cmd = commands[next++];
          const t = process.hrtime.bigint();
          await ledger.apply(cmd);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
    console.log(
      `in-process apply: ${N} debits, ${M} merchants, concurrency ${C}: ${(N / seconds).toFixed(0)} commands/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms`,
    );
    recordNumbers('in-process apply', {
      commandsPerSecond: Math.round(N / seconds),
      p50ms: Number(pct(50)),
      p99ms: Number(pct(99)),
    });
    const batched = Array.from({ length: N }, (_, i) =>
      ledgerCommand.debit(merchants[i % M], directPayoutId(), DEBIT_AMOUNT, DEBIT_FEE),
    );
    const batchStart = process.hrtime.bigint();
    let nextBatch = 0;
    await Promise.all(
      Array.from({ length: Math.min(C, 12) }, async () => {
        while (nextBatch < batched.length) {
          const batch = batched.slice(nextBatch, (nextBatch += 50));
          await ledger.applyBatch(batch);
        }
      }),
    );
    const batchRate = N / (Number(process.hrtime.bigint() - batchStart) / 1e9);
    console.log(
      `in-process applyBatch: ${N} debits in batches of 50, ${Math.min(C, 12)} at once: ${batchRate.toFixed(0)} commands/s = ${(batchRate / tps).toFixed(2)}x pgbench -N`,
    );
    recordNumbers('in-process applyBatch', {
      commandsPerSecond: Math.round(batchRate),
      ratioToPgbench: Number((batchRate / tps).toFixed(2)),
    });

    // The same commands through each bus, one ledger process each, in this run.
    const viaRedis = await throughBus(prisma, merchants, databaseUrl, 'Redis Streams', () => openBus('Redis Streams'));
    const viaKafka = await throughBus(prisma, merchants, databaseUrl, 'Kafka', () => openBus('Kafka'));
    console.log(
      `through the bus / pgbench -N: Redis Streams ${(viaRedis / tps).toFixed(2)}x, Kafka ${(viaKafka / tps).toFixed(2)}x (target >= 1.0x)`,
    );
    console.log(`Kafka / Redis Streams: ${(viaKafka / viaRedis).toFixed(2)}x`);
    recordNumbers('through the bus / pgbench -N (target >= 1.0x)', {
      redisStreams: Number((viaRedis / tps).toFixed(2)),
      kafka: Number((viaKafka / tps).toFixed(2)),
      kafkaOverRedisStreams: Number((viaKafka / viaRedis).toFixed(2)),
    });
    const report = await verifyLedger(prisma);
    console.log(`verify: ${report.eventsChecked} events, ${report.breaches.length} breaches`);
    recordNumbers('verify', { events: report.eventsChecked, breaches: report.breaches.length });
  } finally {
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

const REDIS_URL = 'redis://127.0.0.1:6379/0';

interface BenchBus {
  stack: StackBus;
  busKeyPrefix: string;
  config: BusConfig;
  close(): Promise<void>;
}

/** N debits published to the bus and applied by one ledger process; returns commands/s until all are decided. */
async function throughBus(
  prisma: PrismaClient,
  merchants: number[],
  databaseUrl: string,
  name: string,
  open: () => Promise<BenchBus>,
): Promise<number> {
  const bus = await open();
  try {
    const stack = await LocalStack.start({
      databaseUrl,
      redisUrl: REDIS_URL,
      busKeyPrefix: bus.busKeyPrefix,
      bus: bus.stack,
      logDir: join(repoRoot(), 'tmp', 'bench-logs'),
      env: { LOG_LEVEL: 'warn' },
      // BENCH_NODE_ARGS reaches the services' node (e.g. "--cpu-prof --cpu-prof-dir=tmp/prof"), as in the other benches.
      nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
    });
    try {
      const r = await burst(prisma, merchants, bus.config);
      console.log(
        `through the bus (${name}, 12 partitions, one ledger process): ${N} debits published in ${r.published.toFixed(2)} s, all applied in ${r.total.toFixed(2)} s = ${r.rate.toFixed(0)} commands/s; ` +
          `${r.transactions} transactions, ${r.perTransaction.toFixed(1)} commands each on average, ${r.maxPerTransaction} at most; ${r.rejected} rejected`,
      );
      recordNumbers(`through the bus, ${name}`, {
        publishedSeconds: Number(r.published.toFixed(2)),
        appliedSeconds: Number(r.total.toFixed(2)),
        commandsPerSecond: Math.round(r.rate),
        transactions: r.transactions,
        commandsPerTransaction: Number(r.perTransaction.toFixed(1)),
        maxPerTransaction: r.maxPerTransaction,
        rejected: r.rejected,
      });
      const rate = r.rate;
      return rate;
    } finally {
      await stack.stop();
    }
  } finally {
    await bus.close();
  }
}

interface Burst {
  published: number;
  total: number;
  rate: number;
  transactions: number;
  perTransaction: number;
  maxPerTransaction: number;
  /** Decisions that were not applied (none when the merchants are funded) */
  rejected: number;
}

/**
 * A warm-up of WARMUP debits (not measured), then N debits published at once through the running
 * ledger process; measured from the first publish until every command is decided.
 */
async function burst(prisma: PrismaClient, merchants: number[], config: BusConfig): Promise<Burst> {
  const debits = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      ledgerCommand.debit(merchants[i % merchants.length], directPayoutId(), DEBIT_AMOUNT, DEBIT_FEE),
    );
  // A running system (docs/performance/journal.md): the ledger's code compiled and the broker's JIT warm before the measured burst.
  const warmUp = debits(WARMUP);
  await publishLedgerCommands(config, warmUp);
  await waitFor(
    async () =>
      (await prisma.ledgerCommand.count({ where: { commandId: { in: warmUp.map((c) => c.commandId) } } })) === WARMUP,
    600_000,
    'the warm-up decided',
  );
  const commands = debits(N);
  const ids = commands.map((c) => c.commandId);
  const t0 = process.hrtime.bigint();
  // One producer for the whole burst, as the gateway's relay keeps one (a connection per chunk measured Kafka's connect, 40 times).
  await publishLedgerCommands(config, commands);
  const published = Number(process.hrtime.bigint() - t0) / 1e9;
  await waitFor(
    async () => (await prisma.ledgerCommand.count({ where: { commandId: { in: ids } } })) === N,
    600_000,
    'all commands decided',
  );
  const total = Number(process.hrtime.bigint() - t0) / 1e9;
  // A batch's decisions share their decided_at (the batch's clock): commands per transaction, as the ledger grouped them.
  const [batches] = await prisma.$queryRaw<{ n: bigint; mean: number; max: number; rejected: bigint }[]>`
    SELECT count(*) AS n, avg(k)::float8 AS mean, max(k)::int AS max, sum(r) AS rejected
      FROM (SELECT count(*) AS k, count(*) FILTER (WHERE outcome <> 'applied') AS r
              FROM ledger_commands WHERE command_id = ANY(${ids}) GROUP BY decided_at) b`;
  return {
    published,
    total,
    rate: N / total,
    transactions: Number(batches.n),
    perTransaction: batches.mean,
    maxPerTransaction: batches.max,
    rejected: Number(batches.rejected),
  };
}

/** A built checkout whose ledger process the bench can start. */
interface Build {
  name: 'baseline' | 'current';
  label: string;
  root: string;
}

const ledgerMain = (root: string) => join(root, 'dist', 'apps', 'ledger', 'src', 'main.js');

/**
 * The baseline build: a git worktree of `ref` under tmp/bench/baseline-<sha> (made once, reused),
 * node_modules linked from this checkout, its Prisma client generated and `npm run build:server`
 * run there once (a stamp in its dist/ says which commit was built).
 */
function prepareBaseline(ref: string): Build {
  const root = repoRoot();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const short = git('rev-parse', '--short', sha);
  const dir = join(root, 'tmp', 'bench', `baseline-${short}`);
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(join(root, 'tmp', 'bench'), { recursive: true });
    console.log(`baseline: git worktree add --detach ${dir} ${short}`);
    git('worktree', 'add', '--detach', dir, sha);
  }
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  if (head !== sha) throw new Error(`${dir} is at ${head}, not ${sha}: remove it (git worktree remove --force ${dir})`);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const stamp = join(dir, 'dist', '.bench-built');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== sha || !existsSync(ledgerMain(dir))) {
    const t = Date.now();
    console.log(`baseline: building ${short} in ${dir} (prisma generate, npm run build:server)`);
    const run = (cmd: string, args: string[]) =>
      execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
    run('bash', ['tools/prisma/generate.sh']);
    run('rm', ['-rf', 'dist']);
    run('npm', ['run', '--silent', 'build:server']);
    writeFileSync(stamp, `${sha}\n`);
    console.log(`baseline: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const subject = execFileSync('git', ['log', '-1', '--format=%s', sha], { cwd: root, encoding: 'utf8' }).trim();
  console.log(`baseline: ${short} (${subject.slice(0, 80)}) in ${dir}`);
  return { name: 'baseline', label: `baseline ${short}`, root: dir };
}

/** This checkout's build, and whether its sources differ from its commit (the run records `dirty` too). */
function currentBuild(): Build {
  const root = repoRoot();
  const short = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs'], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  if (!existsSync(ledgerMain(root))) throw new Error(`${ledgerMain(root)} not found: run npm run build first`);
  return { name: 'current', label: `current ${short}${dirty ? ' + uncommitted changes in apps/libs' : ''}`, root };
}

/**
 * Issue 43: each bus in turn, the stack of this build up (its ledger stopped), then rounds that each
 * start one build's ledger process alone, warm it up, measure a burst, and stop it (SIGTERM: it
 * leaves the consumer group; the next one takes every partition over from the committed offsets).
 */
async function againstBaseline(
  prisma: PrismaClient,
  merchants: number[],
  databaseUrl: string,
  baseline: Build,
  tps: number,
): Promise<void> {
  const current = currentBuild();
  console.log(`current: ${current.label} in ${current.root}`);
  // Which build goes first alternates by round, so neither gains from going first (a warmer cache, a quieter host).
  const order = Array.from({ length: ROUNDS }, (_, i) => (i % 2 ? [current, baseline] : [baseline, current])).flat();
  const ratios: Record<string, number> = {};
  for (const busName of ['Redis Streams', 'Kafka'] as const) {
    const bus = await openBus(busName);
    try {
      const stack = await LocalStack.start({
        databaseUrl,
        redisUrl: REDIS_URL,
        busKeyPrefix: bus.busKeyPrefix,
        bus: bus.stack,
        logDir: join(repoRoot(), 'tmp', 'bench-logs'),
        env: { LOG_LEVEL: 'warn' },
        nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
      });
      const rates: Record<Build['name'], number[]> = { baseline: [], current: [] };
      const rows: Record<string, string | number>[] = [];
      try {
        // The two builds' ledgers take turns; the stack's own one gives way (SIGTERM: it leaves the group cleanly).
        await stack.terminateService('ledger');
        for (const [i, build] of order.entries()) {
          const round = Math.floor(i / 2) + 1;
          // A build from before the books writes events without postings, which the books' check refuses:
          // it steps aside for the baseline's rounds (that build's schema had no such check either).
          if (build.name === 'baseline')
            await prisma.$executeRawUnsafe('ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_books');
          const ledger = await startLedger(stack, build, `${busName === 'Kafka' ? 'kafka' : 'redis'}-${round}`);
          let r: Burst;
          try {
            r = await burst(prisma, merchants, bus.config);
          } finally {
            await ledger.stop();
            await prisma.$executeRawUnsafe('ALTER TABLE ledger_events ENABLE TRIGGER ledger_events_books');
          }
          rates[build.name].push(r.rate);
          console.log(
            `${busName}, round ${round}, ${build.label}: ${N} debits applied in ${r.total.toFixed(2)} s = ${r.rate.toFixed(0)} commands/s ` +
              `(${r.transactions} transactions, ${r.perTransaction.toFixed(1)} commands each, ${r.rejected} rejected)`,
          );
          rows.push({
            bus: busName,
            round,
            build: build.name,
            commandsPerSecond: Math.round(r.rate),
            seconds: Number(r.total.toFixed(2)),
            transactions: r.transactions,
            commandsPerTransaction: Number(r.perTransaction.toFixed(1)),
            rejected: r.rejected,
          });
        }
      } finally {
        await stack.stop();
      }
      const b = median(rates.baseline);
      const c = median(rates.current);
      const ratio = c / b;
      ratios[busName] = ratio;
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
      console.log(
        `${busName}: baseline ${list(rates.baseline)} commands/s (median ${b.toFixed(0)}); current ${list(rates.current)} (median ${c.toFixed(0)}); ` +
          `current / baseline ${ratio.toFixed(2)}x (target >= ${AGAINST_TARGET}x: ${ratio >= AGAINST_TARGET ? 'met' : 'missed'})`,
      );
      printResults(`through the bus, ${busName}: ${baseline.label} and ${current.label}, interleaved`, rows);
      recordNumbers(`against baseline, ${busName}`, {
        baseline: baseline.label,
        current: current.label,
        baselineMedian: Math.round(b),
        currentMedian: Math.round(c),
        ratio: Number(ratio.toFixed(3)),
        target: AGAINST_TARGET,
        met: ratio >= AGAINST_TARGET ? 'yes' : 'no',
        ...Object.fromEntries(rates.baseline.map((x, i) => [`baselineRound${i + 1}`, Math.round(x)])),
        ...Object.fromEntries(rates.current.map((x, i) => [`currentRound${i + 1}`, Math.round(x)])),
        currentMedianToPgbench: Number((c / tps).toFixed(2)),
      });
    } finally {
      await bus.close();
    }
  }
  console.log(
    `current / baseline (medians): ${Object.entries(ratios)
      .map(([k, v]) => `${k} ${v.toFixed(2)}x`)
      .join(', ')} (target >= ${AGAINST_TARGET}x)`,
  );
  // No audit here: the baseline's events are not booked (a build before the books has no journal), so the books checks would fail by design.
}

async function openBus(name: 'Redis Streams' | 'Kafka'): Promise<BenchBus> {
  if (name === 'Redis Streams') {
    const prefix = `${uniqueName('bench')}:`;
    const config: BusConfig = { kind: 'redis-streams', redisUrl: REDIS_URL, keyPrefix: prefix, partitions: 12 };
    return { stack: { transport: 'redis-streams' }, busKeyPrefix: prefix, config, close: async () => undefined };
  }
  const { broker, stop } = await startBenchKafka();
  const config: BusConfig = { kind: 'kafka', brokers: [broker.brokers], clientId: 'bench', partitions: 12 };
  return {
    stack: { transport: 'kafka', brokers: broker.brokers },
    busKeyPrefix: `${uniqueName('bench')}:`,
    config,
    close: stop,
  };
}

/**
 * One build's ledger process with the stack's settings for the ledger (its own ops port), its
 * output in tmp/bench-logs/ledger-<build>-<tag>.log; resolves once it answers /readyz.
 */
async function startLedger(stack: LocalStack, build: Build, tag: string): Promise<{ stop(): Promise<void> }> {
  const port = await freePort();
  const logFile = join(repoRoot(), 'tmp', 'bench-logs', `ledger-${build.name}-${tag}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...SERVICE_NODE_FLAGS.ledger,
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ledgerMain(build.root),
    ],
    { cwd: build.root, env: { ...stack.envFor('ledger'), OPS_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once('close', () => log.end());
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  await waitFor(
    async () => {
      if (!alive()) throw new Error(`the ${build.label} ledger exited before it was ready; see ${logFile}`);
      return fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    `the ${build.label} ledger ready`,
  );
  return {
    stop: async () => {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

runBench(main);
