import { join } from 'node:path';
import { createPrismaClient, dropDatabase, verifyLedger } from '@pay/persistence';
import { createMerchant, createTestDatabase, directPayoutId, fundMerchant, ledgerFor, LocalStack, ledgerCommand, publishLedgerCommands, repoRoot, uniqueName, waitFor } from '@pay/testing';
import { runScript } from './harness';

/**
 * Ledger throughput on this machine, printed as numbers (not a test):
 *  1. in-process: LedgerService.apply with N concurrent debits spread over M merchants;
 *  2. through the bus: N debit commands published to Redis Streams and applied by the ledger
 *     running as its own process, measured until every command is decided.
 * Usage: npm run build && node dist/tools/bench/ledger-bench.js [commands=5000] [merchants=50] [concurrency=32]
 */
const [N = 5000, M = 50, C = 32] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
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
    const commands = Array.from({ length: N }, (_, i) => ledgerCommand.debit(merchants[i % M], directPayoutId(), 10_000_00n, 2_500_00n));
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
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
    console.log(`in-process apply: ${N} debits, ${M} merchants, concurrency ${C}: ${(N / seconds).toFixed(0)} commands/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms`);

    const prefix = `${uniqueName('bench')}:`;
    const stack = await LocalStack.start({ databaseUrl, redisUrl: 'redis://127.0.0.1:6379/0', busKeyPrefix: prefix, logDir: join(repoRoot(), 'tmp', 'bench-logs'), env: { LOG_LEVEL: 'warn' } });
    try {
      const busCommands = Array.from({ length: N }, (_, i) => ledgerCommand.debit(merchants[i % M], directPayoutId(), 10_000_00n, 2_500_00n));
      const ids = busCommands.map((c) => c.commandId);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < busCommands.length; i += 500) {
        await publishLedgerCommands({ kind: 'redis-streams', redisUrl: 'redis://127.0.0.1:6379/0', keyPrefix: prefix, partitions: 12 }, busCommands.slice(i, i + 500));
      }
      const published = Number(process.hrtime.bigint() - t0) / 1e9;
      await waitFor(async () => (await prisma.ledgerCommand.count({ where: { commandId: { in: ids } } })) === N, 600_000, 'all commands decided');
      const total = Number(process.hrtime.bigint() - t0) / 1e9;
      console.log(`through the bus (Redis Streams, 12 partitions, one ledger process): ${N} debits published in ${published.toFixed(2)} s, all applied in ${total.toFixed(2)} s = ${(N / total).toFixed(0)} commands/s`);
    } finally {
      await stack.stop();
    }
    const report = await verifyLedger(prisma);
    console.log(`verify: ${report.eventsChecked} events, ${report.breaches.length} breaches`);
  } finally {
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runScript(main);
