import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { SERVICE_NODE_FLAGS } from '@pay/platform';
import { createMerchant, createTestDatabase, fundMerchant, repoRoot, waitFor } from '@pay/testing';
import { freePort, type LocalStack } from '@pay/devstack';
import { cpuMsOf } from '../lib/cpu';
import { BENCH_RATE_LIMITS, runBench, startBenchStack } from '../lib/harness';
import { load } from '../lib/http-load';
import { median, printResults } from '../lib/report';

/**
 * Two builds of the gateway side by side, interleaved: this checkout's and another's (a `git
 * worktree` of the commit to compare, built with `npm run build`), each a process of its own on
 * the same database and Redis, the same merchant, the same GET. The load switches between them
 * every `slice` seconds for `rounds` rounds (in turns ABBA…), and each build's CPU per request is
 * summed over its slices. This host's speed drifts by a third within a minute, so two runs one
 * after the other measure the drift as much as the builds; interleaved, both builds meet it.
 * Prints each build's requests per second and CPU ms per request (the total, and the median of
 * its slices), and this build's figures over the other's.
 * Usage: npm run build && npm run bench -- interleaved <other checkout> [path=/api/v1/payin/balance] [rounds=10] [slice seconds=3] [concurrency=32] [warm-up seconds=10]
 */
const [OTHER, PATH = '/api/v1/payin/balance', ROUNDS = '10', SLICE = '3', C = '32', WARMUP = '10'] =
  process.argv.slice(2);

interface Build {
  name: string;
  child: ChildProcess;
  url: string;
  requests: number;
  cpuMs: number;
  slices: number[];
}

async function main(): Promise<void> {
  if (!OTHER)
    throw new Error(
      'usage: npm run bench -- interleaved <other checkout, built> [path] [rounds] [slice seconds] [concurrency] [warm-up seconds]',
    );
  const other = resolve(OTHER);
  if (!existsSync(gatewayMain(other)))
    throw new Error(`${gatewayMain(other)} not found: run npm run build in ${other}`);
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 2);
  let stack: LocalStack | undefined;
  const builds: Build[] = [];
  try {
    const { merchant, token, admin } = await createMerchant(prisma);
    await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
    await fundMerchant(prisma, merchant.id, [1_000_000n]);
    stack = await startBenchStack(databaseUrl);
    // The stack's own gateway gives way to the two under test (the other services stay, as in production).
    await stack.kill('gateway');
    for (const [name, root] of [
      ['other', other],
      ['this', repoRoot()],
    ] as const) {
      const port = await freePort();
      const internal = await freePort();
      const env = { ...stack.envFor('gateway'), GATEWAY_PORT: String(port), GATEWAY_INTERNAL_PORT: String(internal) };
      const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS.gateway, gatewayMain(root)], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      builds.push({
        name: `${name} (${root})`,
        child,
        url: `http://127.0.0.1:${port}${PATH}`,
        requests: 0,
        cpuMs: 0,
        slices: [],
      });
      await ready(`http://127.0.0.1:${internal}/readyz`);
    }
    const headers = { token };
    for (const b of builds) await load(b.url, headers, Number(WARMUP), Number(C));
    for (let round = 0; round < Number(ROUNDS); round++) {
      for (const b of round % 2 ? [...builds].reverse() : builds) {
        const before = cpuMsOf(b.child.pid as number);
        const measured = await load(b.url, headers, Number(SLICE), Number(C));
        const ms = cpuMsOf(b.child.pid as number) - before;
        b.requests += measured.requests;
        b.cpuMs += ms;
        b.slices.push(ms / measured.requests);
      }
    }
    const seconds = Number(ROUNDS) * Number(SLICE);
    const rows = builds.map((b) => ({
      build: b.name,
      rps: Math.round(b.requests / seconds),
      cpuMsPerRequest: (b.cpuMs / b.requests).toFixed(3),
      medianSliceCpuMs: median(b.slices).toFixed(3),
    }));
    const [o, t] = builds;
    printResults(`gateway GET ${PATH}, two builds interleaved (${ROUNDS} rounds of ${SLICE} s, ${C} clients)`, rows);
    printResults('this build over the other', [
      {
        rps: (t.requests / o.requests).toFixed(3),
        cpuMsPerRequest: (t.cpuMs / t.requests / (o.cpuMs / o.requests)).toFixed(3),
      },
    ]);
  } finally {
    for (const b of builds) b.child.kill('SIGTERM');
    await stack?.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

const gatewayMain = (root: string) => join(root, 'dist', 'apps', 'gateway', 'src', 'main.js');

/** Waits for a gateway's readiness (60 s at most). */
const ready = (url: string): Promise<void> =>
  waitFor(
    () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
    60_000,
    `${url} to be ready`,
    300,
  );

runBench(main);
