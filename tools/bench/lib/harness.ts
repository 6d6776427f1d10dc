import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { KafkaBroker, LocalStack, type S3Server, type StackBus } from '@pay/devstack';
import { requireNodeVersion } from '@pay/platform';
import { repoRoot, uniqueName } from '@pay/testing';
import { reported } from './report';
import { appendRun, finishRun, startRun } from './results';

export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379/0';

/**
 * The rate limits of a bench merchant: far above what one gateway serves, so a throughput bench
 * measures the gateway (the limiter still runs on every request) rather than the default limits.
 */
export const BENCH_RATE_LIMITS = { read: 100_000, write: 100_000, export: 100_000 };

/**
 * The four services as processes on a bench database, quiet, with their own bus prefix and logs;
 * `s3`: a running S3 server for the recon files (default: an S3Proxy the stack starts and stops);
 * `bus`: the bus the services talk over (default: Redis Streams).
 */
export function startBenchStack(
  databaseUrl: string,
  env: Record<string, string> = {},
  name = 'bench',
  s3?: S3Server,
  bus?: StackBus,
): Promise<LocalStack> {
  return LocalStack.start({
    s3,
    bus,
    databaseUrl,
    redisUrl: BENCH_REDIS_URL,
    busKeyPrefix: `${uniqueName(name)}:`,
    logDir: join(repoRoot(), 'tmp', `${name}-logs`),
    // The benches' merchants read with many clients at once: no cap on reads in flight (their rate limits are high too).
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_READ_CONCURRENCY: '0', ...env },
    // BENCH_NODE_ARGS reaches the services' node (e.g. "--cpu-prof --cpu-prof-dir=tmp/prof" to profile a run).
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
  });
}

export interface BenchBus {
  name: 'Redis Streams' | 'Kafka';
  /** For startBenchStack; undefined: Redis Streams */
  stack?: StackBus;
  /** The Kafka broker's process (its CPU is the bus's cost, as Redis's is on Redis Streams) */
  pid?: number;
  stop(): Promise<void>;
}

/** A Kafka broker of the run's own, in a temporary directory that stop() removes. */
export async function startBenchKafka(): Promise<{ broker: KafkaBroker; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-kafka-'));
  const broker = await KafkaBroker.start({ dir });
  return {
    broker,
    stop: async () => {
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Which bus the benches run on: BENCH_BUS=kafka for Kafka, Redis Streams otherwise. */
export function benchBusName(): BenchBus['name'] {
  return process.env.BENCH_BUS === 'kafka' ? 'Kafka' : 'Redis Streams';
}

/**
 * The bus a bench's stack talks over: Redis Streams, or with BENCH_BUS=kafka the production bus,
 * a broker of the run's own (startBenchKafka).
 */
export async function benchBus(): Promise<BenchBus> {
  if (benchBusName() === 'Redis Streams') return { name: 'Redis Streams', stop: async () => undefined };
  const { broker, stop } = await startBenchKafka();
  return { name: 'Kafka', stack: { transport: 'kafka', brokers: broker.brokers }, pid: broker.pid, stop };
}

/**
 * Runs a script's main (a benchmark, chaos) and exits non-zero with the error when it fails; an
 * older Node.js than the one required is refused first, since numbers measured on another
 * runtime would not be comparable.
 */
export function runScript(main: () => Promise<void>, program = basename(process.argv[1] ?? 'script', '.js')): void {
  requireNodeVersion(program);
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

/**
 * Runs a suite (suites/<name>.bench.ts) as runScript does, then appends what it reported
 * (lib/report.ts) to tmp/bench/<name>.jsonl, for compare.ts. A failed run records nothing; nor
 * does a worker thread of the suite (the flood's flooder).
 */
export function runBench(main: () => Promise<void>): void {
  const suite = basename(process.argv[1] ?? 'bench', '.js').replace(/\.bench$/, '');
  const start = isMainThread ? startRun(suite) : undefined;
  runScript(async () => {
    await main();
    if (!start) return;
    const { file, runs } = appendRun(finishRun(start, reported()));
    console.log(`\nrun ${runs} recorded in ${relative(repoRoot(), file)} (compare: npm run bench:compare -- ${suite})`);
  }, `${suite}-bench`);
}
