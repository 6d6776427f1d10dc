import { basename, join } from 'node:path';
import { requireNodeVersion } from '@pay/platform';
import { LocalStack, repoRoot, type S3Server, type StackBus, uniqueName } from '@pay/testing';

export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379/0';

/**
 * The rate limits of a bench merchant: far above what one gateway serves, so a throughput bench
 * measures the gateway (the limiter still runs on every request) rather than the default limits.
 */
export const BENCH_RATE_LIMITS = { read: 100_000, write: 100_000, export: 100_000 };

/**
 * The four services as processes on a bench database, quiet, with their own bus prefix and logs;
 * `s3`: a running S3 server for the recon files (default: s3rver inside the bench's own process);
 * `bus`: the bus the services talk over (default: Redis Streams).
 */
export function startBenchStack(databaseUrl: string, env: Record<string, string> = {}, name = 'bench', s3?: S3Server, bus?: StackBus): Promise<LocalStack> {
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

/**
 * Runs a script's main (a benchmark, chaos) and exits non-zero with the error when it fails; an
 * older Node.js than the one required is refused first, since numbers measured on another
 * runtime would not be comparable.
 */
export function runScript(main: () => Promise<void>): void {
  requireNodeVersion(basename(process.argv[1] ?? 'script', '.js'));
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
