import { createPrismaClient, dropDatabase, verifyLedger } from '@pay/persistence';
import { createMerchant, createTestDatabase } from '@pay/testing';
import { historyShape, seedLedgerHistory } from '../seeds/ledger-history.seed';
import { printResults } from '../lib/report';
import { runBench } from '../lib/harness';

/**
 * `admin ledger verify` (the full audit) over N ledger events (default 1,000,000) spread over
 * M merchants, with the rows behind them: pay-ins, settlements, disbursements, decisions.
 * Target: 1,000,000 events/s (issue 43). A second run after breaking one fact in 10 merchants measures the
 * row-by-row examination too; a third, every merchant with a pay-in in flight (a live system).
 * Usage: npm run build && npm run bench -- verify [events=1000000] [merchants=100]
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
    await seedLedgerHistory(prisma, ids, perMerchant);
    const loaded = (Date.now() - t0) / 1000;
    const shape = historyShape(perMerchant);

    const audit = async (label: string, graceSeconds = 0) => {
      const t = process.hrtime.bigint();
      const report = await verifyLedger(prisma, { graceSeconds });
      const seconds = Number(process.hrtime.bigint() - t) / 1e9;
      const r = report.rowsChecked;
      return {
        run: label,
        events: report.eventsChecked,
        merchants: report.merchantsChecked,
        payins: r.payins,
        settlements: r.settlements,
        disbursements: r.disbursements,
        decisions: r.decisions,
        examined: report.merchantsExamined,
        breaches: report.breaches.length,
        inFlight: report.inFlight.length,
        seconds: Number(seconds.toFixed(2)),
        eventsPerSecond: Math.round(report.eventsChecked / seconds),
        target: 1_000_000,
      };
    };
    const clean = await audit('clean');
    // One broken fact in each of 10 merchants: a successful pay-in whose payin.recorded was never booked.
    await prisma.$executeRawUnsafe(`
      UPDATE payins SET status = 'success', success_at = now() - interval '1 hour'
       WHERE id IN (SELECT md5('payin:' || m || ':' || ${shape.payins + 1})::uuid FROM unnest(ARRAY[${ids.slice(0, 10).join(',')}]::int[]) m)`);
    const broken = await audit('10 merchants broken');
    // A live system: every merchant has a pay-in that just succeeded and is not recorded yet (within --grace).
    await prisma.$executeRawUnsafe(`
      UPDATE payins SET status = 'success', success_at = now()
       WHERE id IN (SELECT md5('payin:' || m || ':' || ${shape.payins + 3})::uuid FROM unnest(ARRAY[${ids.join(',')}]::int[]) m)`);
    const live = await audit('live: pay-ins in flight', 300);
    printResults('ledger verify (full audit)', [
      { ...clean, loadSeconds: Number(loaded.toFixed(1)) },
      { ...broken, loadSeconds: 0 },
      { ...live, loadSeconds: 0 },
    ]);
  } finally {
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
