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
import { LocalStack, type StackBus } from '@pay/devstack';
import { runBench, startBenchKafka } from '../lib/harness';
import { pgbenchTps } from '../lib/pgbench';
import { recordNumbers } from '../lib/report';

/**
 * Ledger throughput on this machine, printed as numbers (not a test):
 *  0. the ceiling: pgbench -N on this machine's Postgres, in the same run;
 *  1. in-process: LedgerService.apply with N concurrent debits spread over M merchants, then
 *     applyBatch with the same debits in batches of 50 (what one bus partition hands over);
 *  2. through the bus: N debit commands published to Redis Streams, then to Kafka (a broker of
 *     this run's own, the kafka-init topics), each applied by one ledger process, measured until
 *     every command is decided; the ratios to pgbench -N and Kafka / Redis Streams close the run.
 *     Each bus first carries a warm-up burst (not measured) through its ledger process.
 * Usage: npm run build && npm run bench -- ledger [commands=20000] [merchants=50] [concurrency=32] [warm-up commands=5000]
 */
// 20,000 commands: a burst long enough to be steady (a one-second run measures start-up and the end's poll as much as the ledger).
const [N = 20_000, M = 50, C = 32, WARMUP = 5_000] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const tps = pgbenchTps();
  console.log(`ceiling: pgbench -N, 8 clients: ${tps.toFixed(0)} transactions/s`);
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, C + 4);
  try {
    const merchants: number[] = [];
    for (let i = 0; i < M; i++) {
      const { merchant } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [10_000_000_00n]);
      merchants.push(merchant.id);
    }
    const ledger = ledgerFor(prisma);
    const commands = Array.from({ length: N }, (_, i) =>
      ledgerCommand.debit(merchants[i % M], directPayoutId(), 10_000_00n, 2_500_00n),
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
      ledgerCommand.debit(merchants[i % M], directPayoutId(), 10_000_00n, 2_500_00n),
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
    const viaRedis = await throughBus(prisma, merchants, databaseUrl, 'Redis Streams', async () => {
      const prefix = `${uniqueName('bench')}:`;
      const config: BusConfig = { kind: 'redis-streams', redisUrl: REDIS_URL, keyPrefix: prefix, partitions: 12 };
      return { stack: { transport: 'redis-streams' }, busKeyPrefix: prefix, config, close: async () => undefined };
    });
    const viaKafka = await throughBus(prisma, merchants, databaseUrl, 'Kafka', async () => {
      const { broker, stop } = await startBenchKafka();
      const config: BusConfig = { kind: 'kafka', brokers: [broker.brokers], clientId: 'bench', partitions: 12 };
      return {
        stack: { transport: 'kafka', brokers: broker.brokers },
        busKeyPrefix: `${uniqueName('bench')}:`,
        config,
        close: stop,
      };
    });
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
      const debits = (n: number) =>
        Array.from({ length: n }, (_, i) =>
          ledgerCommand.debit(merchants[i % merchants.length], directPayoutId(), 10_000_00n, 2_500_00n),
        );
      // A running system (docs/performance/journal.md): the ledger's code compiled and the broker's JIT warm before the measured burst.
      const warmUp = debits(WARMUP);
      await publishLedgerCommands(bus.config, warmUp);
      await waitFor(
        async () =>
          (await prisma.ledgerCommand.count({ where: { commandId: { in: warmUp.map((c) => c.commandId) } } })) ===
          WARMUP,
        600_000,
        'the warm-up decided',
      );
      const commands = debits(N);
      const ids = commands.map((c) => c.commandId);
      const t0 = process.hrtime.bigint();
      // One producer for the whole burst, as the gateway's relay keeps one (a connection per chunk measured Kafka's connect, 40 times).
      await publishLedgerCommands(bus.config, commands);
      const published = Number(process.hrtime.bigint() - t0) / 1e9;
      await waitFor(
        async () => (await prisma.ledgerCommand.count({ where: { commandId: { in: ids } } })) === N,
        600_000,
        'all commands decided',
      );
      const total = Number(process.hrtime.bigint() - t0) / 1e9;
      const rate = N / total;
      // A batch's decisions share their decided_at (the batch's clock): commands per transaction, as the ledger grouped them.
      const [batches] = await prisma.$queryRaw<{ n: bigint; mean: number; max: number }[]>`
        SELECT count(*) AS n, avg(k)::float8 AS mean, max(k)::int AS max FROM (SELECT count(*) AS k FROM ledger_commands WHERE command_id = ANY(${ids}) GROUP BY decided_at) b`;
      console.log(
        `through the bus (${name}, 12 partitions, one ledger process): ${N} debits published in ${published.toFixed(2)} s, all applied in ${total.toFixed(2)} s = ${rate.toFixed(0)} commands/s; ` +
          `${batches.n} transactions, ${batches.mean.toFixed(1)} commands each on average, ${batches.max} at most`,
      );
      recordNumbers(`through the bus, ${name}`, {
        publishedSeconds: Number(published.toFixed(2)),
        appliedSeconds: Number(total.toFixed(2)),
        commandsPerSecond: Math.round(rate),
        transactions: Number(batches.n),
        commandsPerTransaction: Number(batches.mean.toFixed(1)),
        maxPerTransaction: batches.max,
      });
      return rate;
    } finally {
      await stack.stop();
    }
  } finally {
    await bus.close();
  }
}

runBench(main);
