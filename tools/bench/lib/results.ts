import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, hostname, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@pay/testing';
import type { Reports } from './report';

/**
 * One run of a suite, one line of tmp/bench/<suite>.jsonl: when, on which commit and machine,
 * with which arguments, and what it measured (lib/report.ts). compare.ts reads them back.
 */
export interface BenchRun {
  suite: string;
  /** When the run started (ISO 8601) */
  time: string;
  /** How long it took, seconds */
  seconds: number;
  /** The checkout's commit, and whether it had uncommitted changes */
  commit: string | null;
  dirty: boolean;
  args: string[];
  /** The settings a bench reads from the environment (BENCH_*, the rate limits, the webhook settings, LOG_LEVEL) */
  env: Record<string, string>;
  /** The machine, and the ceilings the run measured on it (pgbenchTps) */
  host: HostFacts & Record<string, string | number>;
  numbers: Reports['numbers'];
  tables: Reports['tables'];
}

/** A run before it has measured anything. */
export type RunStart = Omit<BenchRun, 'seconds' | 'numbers' | 'tables'>;

/** What a run is compared on beside its numbers: the machine (the ceilings a run measures are added to it). */
export type HostFacts = {
  hostname: string;
  cores: number;
  availableParallelism: number;
  cpu: string;
  memoryGb: number;
  node: string;
  os: string;
  /** Load average over the last minute when the run started (the machine is often shared) */
  loadAverage: number;
};

const ENV = /^(BENCH_|RATE_LIMIT_|WEBHOOK_|LOG_LEVEL$|CHROMIUM_PATH$)/;

/** The start of a run: everything but what it measures. */
export function startRun(suite: string, argv = process.argv.slice(2)): RunStart {
  return {
    suite,
    time: new Date().toISOString(),
    ...gitState(),
    // A URL's password (plans takes a database URL) stays out of the file.
    args: argv.map((a) => a.replace(/\/\/([^:/@]+):[^@/]+@/, '//$1:***@')),
    env: Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => ENV.test(e[0]) && e[1] !== undefined),
    ),
    host: hostFacts(),
  };
}

/** The run as recorded: its start, how long it took and what it reported. */
export function finishRun(start: RunStart, reports: Reports): BenchRun {
  const { suite, time, commit, dirty, args, env, host } = start;
  return {
    suite,
    time,
    seconds: Math.round((Date.now() - Date.parse(time)) / 100) / 10,
    commit,
    dirty,
    args,
    env,
    host: { ...host, ...reports.host },
    numbers: reports.numbers,
    tables: reports.tables,
  };
}

export function hostFacts(): HostFacts {
  return {
    hostname: hostname(),
    cores: cpus().length,
    availableParallelism: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${type()} ${release()}`,
    loadAverage: Math.round(loadavg()[0] * 100) / 100,
  };
}

function gitState(): { commit: string | null; dirty: boolean } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repoRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') !== '' };
  } catch {
    return { commit: null, dirty: false }; // not a git checkout (an unpacked build)
  }
}

export function resultsDir(): string {
  return join(repoRoot(), 'tmp', 'bench');
}

export function resultsFile(suite: string): string {
  return join(resultsDir(), `${suite}.jsonl`);
}

/** Appends the run to its suite's file; returns the file and how many runs it now holds. */
export function appendRun(run: BenchRun): { file: string; runs: number } {
  mkdirSync(resultsDir(), { recursive: true });
  const file = resultsFile(run.suite);
  appendFileSync(file, `${JSON.stringify(run)}\n`);
  return { file, runs: readRuns(run.suite).length };
}

/** Every recorded run of a suite, oldest first. */
export function readRuns(suite: string): BenchRun[] {
  const file = resultsFile(suite);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as BenchRun);
}

/** The suites that have recorded runs. */
export function recordedSuites(): string[] {
  if (!existsSync(resultsDir())) return [];
  return readdirSync(resultsDir())
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length))
    .sort();
}
