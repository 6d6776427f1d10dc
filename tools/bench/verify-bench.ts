import { createPrismaClient, dropDatabase, verifyLedger } from '@pay/persistence';
import { createMerchant, createTestDatabase } from '@pay/testing';
import { printResults } from './report';
import { runScript } from './harness';

/**
 * `admin ledger verify` over N ledger events (default 1,000,000) spread over M merchants:
 * events folded per second. Target: 200,000 events/s.
 * Usage: npm run build && node dist/tools/bench/verify-bench.js [events=1000000] [merchants=100]
 */
const [N = 1_000_000, M = 100] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  try {
    const ids: number[] = [];
    for (let i = 0; i < M; i++) ids.push((await createMerchant(prisma)).merchant.id);
    const perMerchant = Math.ceil(N / M);
    const t0 = Date.now();
    // Credits only (available += 100 each), gap-free seq per merchant; the projection set to match.
    await prisma.$executeRawUnsafe(`
      INSERT INTO ledger_events (merchant_id, seq, command_id, type, reference, available_delta, pending_delta, payload)
      SELECT m, s, 'bench:' || m || ':' || s, 'settlement.credited', 'bench-' || m || '-' || s, 100, 0, '{}'::jsonb
        FROM unnest(ARRAY[${ids.join(',')}]) AS m, generate_series(1, ${perMerchant}) AS s`);
    await prisma.$executeRawUnsafe(`UPDATE balances SET available = ${perMerchant * 100}, last_seq = ${perMerchant} WHERE merchant_id IN (${ids.join(',')})`);
    await prisma.$executeRawUnsafe('ANALYZE ledger_events');
    const loaded = (Date.now() - t0) / 1000;
    const t1 = process.hrtime.bigint();
    const report = await verifyLedger(prisma);
    const seconds = Number(process.hrtime.bigint() - t1) / 1e9;
    printResults('ledger verify', [
      { events: report.eventsChecked, merchants: report.merchantsChecked, mismatches: report.mismatches.length, seconds: Number(seconds.toFixed(2)), eventsPerSecond: Math.round(report.eventsChecked / seconds), target: 200_000, loadSeconds: Number(loaded.toFixed(1)) },
    ]);
  } finally {
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runScript(main);
