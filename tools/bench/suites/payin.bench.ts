import { randomUUID } from 'node:crypto';
import { createPrismaClient, dropDatabase, SettlementPlanner } from '@pay/persistence';
import { createMerchant, createTestDatabase, waitFor } from '@pay/testing';
import { BENCH_RATE_LIMITS, runBench, startBenchStack } from '../lib/harness';
import { recordNumbers } from '../lib/report';

/**
 * QRIS pay-in throughput over HTTP against the four services as processes: generate + sandbox
 * payment (the signed acquirer path) for N pay-ins over M merchants at concurrency C, the time
 * until the ledger has recorded all of them, then one settlement per merchant. Prints numbers.
 * Usage: npm run build && npm run bench -- payin [payins=2000] [merchants=20] [concurrency=16]
 */
const [N = 2000, M = 20, C = 16] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  const stack = await startBenchStack(databaseUrl);
  try {
    const merchants: { id: number; token: string }[] = [];
    for (let i = 0; i < M; i++) {
      const { merchant, token, admin } = await createMerchant(prisma);
      await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
      merchants.push({ id: merchant.id, token });
    }
    const post = async (path: string, token: string, body: object) => {
      const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/qris/${path}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    };
    const latencies: number[] = [];
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < N) {
          const { token } = merchants[next++ % M];
          const merchantTrxId = randomUUID();
          const t = process.hrtime.bigint();
          await post('generate', token, { merchantTrxId, amount: 50000 });
          await post('sandbox/pay', token, { merchantTrxId });
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }),
    );
    const httpSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    await waitFor(
      async () => (await prisma.payin.count({ where: { ledgerEventId: { not: null } } })) === N,
      600_000,
      'all recorded',
    );
    const recordedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(0);
    console.log(
      `generate + pay over HTTP: ${N} pay-ins, ${M} merchants, concurrency ${C}: ${(N / httpSeconds).toFixed(0)} pay-ins/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms (both calls)`,
    );
    console.log(
      `all ${N} recorded in pending by the ledger after ${recordedSeconds.toFixed(1)} s = ${(N / recordedSeconds).toFixed(0)}/s end to end`,
    );
    recordNumbers('generate + pay over HTTP', {
      payinsPerSecond: Math.round(N / httpSeconds),
      p50ms: Number(pct(50)),
      p99ms: Number(pct(99)),
    });
    recordNumbers('recorded by the ledger', {
      seconds: Number(recordedSeconds.toFixed(1)),
      perSecond: Math.round(N / recordedSeconds),
    });

    const t0 = process.hrtime.bigint();
    const planner = new SettlementPlanner(prisma);
    const ids = (await Promise.all(merchants.map((m) => planner.plan(m.id, new Date())))).map(
      (p) => p?.settlementId as string,
    );
    await waitFor(
      async () => (await prisma.settlement.count({ where: { id: { in: ids } } })) === M,
      600_000,
      'settlements',
    );
    const settledSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`settled ${N} pay-ins in ${M} settlements in ${settledSeconds.toFixed(2)} s`);
    recordNumbers('settled', { settlements: M, seconds: Number(settledSeconds.toFixed(2)) });
  } finally {
    await stack.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
