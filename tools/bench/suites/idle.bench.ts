import { createPrismaClient, dropDatabase, ensureDatabase } from '@pay/persistence';
import { createTestDatabase } from '@pay/testing';
import { type LocalStack, SERVICES } from '@pay/devstack';
import Redis from 'ioredis';
import { cpuMsOf, jitCompilerMsOf } from '../lib/cpu';
import { BENCH_REDIS_URL, benchBus, runBench, startBenchStack } from '../lib/harness';
import { printResults } from '../lib/report';
import { redisCommandsByProcess } from '../lib/redis-monitor';

/**
 * What the stack costs doing nothing: the four services as processes (Redis Streams bus, or Kafka
 * with BENCH_BUS=kafka: a broker of the run's own), start-up let pass, then CPU ms per second of each service, of this
 * database's Postgres backends and of Redis, Postgres transactions per second in the bench
 * database, and Redis commands per second (INFO commandstats, and per service from MONITOR
 * filtered to this stack's connections). Repeated `rounds` times on the same stack.
 * Target (issue 15): the four services together <= 15 CPU ms per second.
 * Postgres and Redis are shared by whatever else runs on the machine: their CPU is shown
 * for this stack's own backends (Postgres) and for the whole server (Redis, other load included).
 * Usage: npm run build && npm run bench -- idle [seconds=30] [rounds=2]
 */
const args = process.argv.slice(2);
const SECONDS = Number(args[0] ?? 30);
const ROUNDS = Number(args[1] ?? 2);
const STARTUP_MS = 10_000;
const MONITOR_MS = 5_000;
const TARGET_MS_PER_S = 15;

type Row = Record<string, string | number>;
const round1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  await ensureDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl, 1);
  const redis = new Redis(BENCH_REDIS_URL, { connectionName: 'idle-bench' });
  // A Redis restart mid-run shows as a failed sample, not an unhandled 'error' that ends the process.
  redis.on('error', (err: Error) => console.warn(`idle-bench redis: ${err.message}`));
  let stack: LocalStack | undefined;
  const bus = await benchBus();
  try {
    stack = await startBenchStack(databaseUrl, {}, 'idle', undefined, bus.stack);
    const running = stack;
    const dbName = new URL(databaseUrl).pathname.slice(1);
    const pgBackends = async (): Promise<number[]> =>
      (
        await prisma.$queryRaw<
          { pid: number }[]
        >`SELECT pid FROM pg_stat_activity WHERE datname = ${dbName} AND pid <> pg_backend_pid()`
      ).map((r) => r.pid);
    const pgTransactions = async (): Promise<number> => {
      const [row] = await prisma.$queryRaw<
        { n: bigint }[]
      >`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = ${dbName}`;
      return Number(row.n);
    };
    const redisCommands = async (): Promise<number> => {
      const info = await redis.info('stats');
      return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
    };
    const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1] ?? 0);
    const sample = async () => {
      const cpu: Record<string, number> = {};
      for (const s of SERVICES) cpu[s] = cpuMsOf(running.pid(s) ?? -1);
      const backends = await pgBackends();
      return {
        at: Date.now(),
        cpu,
        backends: new Map(backends.map((pid) => [pid, cpuMsOf(pid)])),
        redis: cpuMsOf(redisPid),
        broker: bus.pid ? cpuMsOf(bus.pid) : 0,
        brokerJit: bus.pid ? jitCompilerMsOf(bus.pid) : 0,
        xacts: await pgTransactions(),
        commands: await redisCommands(),
      };
    };

    await new Promise((r) => setTimeout(r, STARTUP_MS));
    const rows: Row[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const before = await sample();
      await new Promise((res) => setTimeout(res, SECONDS * 1000));
      const after = await sample();
      const s = (after.at - before.at) / 1000;
      const row: Row = { round: r };
      let stackTotal = 0;
      for (const svc of SERVICES) {
        const ms = (after.cpu[svc] - before.cpu[svc]) / s;
        row[svc] = round1(ms);
        stackTotal += ms;
      }
      row.services = round1(stackTotal);
      row.target = TARGET_MS_PER_S;
      row.met = stackTotal <= TARGET_MS_PER_S ? 'yes' : 'no';
      // Backends present in both samples (a pool's short-lived backend can be missed).
      let pg = 0;
      for (const [pid, ms] of after.backends) pg += ms - (before.backends.get(pid) ?? ms);
      row.postgresBackends = round1(pg / s);
      row.redisServer = round1((after.redis - before.redis) / s);
      if (bus.pid) {
        row.kafkaBroker = round1((after.broker - before.broker) / s);
        // Of which its JIT compilers: a broker started for the bench is still compiling.
        row.kafkaBrokerJit = round1((after.brokerJit - before.brokerJit) / s);
      }
      row.pgTransactionsPerS = round1((after.xacts - before.xacts) / s);
      row.redisCommandsPerS = round1((after.commands - before.commands) / s);
      rows.push(row);
    }
    printResults(
      `idle stack, CPU ms per second per process, ${bus.name} bus (${SECONDS} s x ${ROUNDS}; target: services <= ${TARGET_MS_PER_S} ms/s; redisServer and redisCommandsPerS include other load on that Redis)`,
      rows,
    );
    const byProcess = await redisCommandsByProcess(BENCH_REDIS_URL, running, MONITOR_MS);
    printResults(
      `idle stack, Redis commands per second by process and command (MONITOR, ${MONITOR_MS / 1000} s)`,
      byProcess,
    );
  } finally {
    await stack?.stop();
    await bus.stop();
    redis.disconnect();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
