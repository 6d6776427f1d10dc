import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, fundMerchant, LocalStack, repoRoot, uniqueName, waitFor } from '@pay/testing';

/**
 * Disbursement throughput over HTTP against the four services as processes (Redis Streams
 * bus, sandbox rail with no latency): account inquiry + transfer for N transfers spread over M
 * merchants at concurrency C, then the time until every one is final. Prints numbers.
 * Usage: npm run build && node dist/tools/bench/transfer-bench.js [transfers=1000] [merchants=20] [concurrency=16]
 */
const [N = 1000, M = 20, C = 16] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl: 'redis://127.0.0.1:6379/0',
    busKeyPrefix: `${uniqueName('bench')}:`,
    logDir: join(repoRoot(), 'tmp', 'bench-logs'),
    env: { LOG_LEVEL: 'warn', RAIL_SANDBOX_LATENCY_MS: '0', PAYOUT_POLL_INTERVAL_MS: '100', PAYOUT_BATCH_SIZE: '64' },
  });
  try {
    const tokens: string[] = [];
    for (let i = 0; i < M; i++) {
      const { merchant, token } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [100_000_000_00n]);
      tokens.push(token);
    }
    const post = async (path: string, token: string, body: object) => {
      const res = await fetch(`${stack.gatewayUrl}/api/v1/disbursement/${path}`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const latencies: number[] = [];
    const inquiryMs: number[] = [];
    let next = 0;
    let accepted = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < N) {
          const token = tokens[next++ % M];
          const t = process.hrtime.bigint();
          const inq = await post('account-inquiry', token, { merchantTrxId: randomUUID(), accountNo: '1234567890', bankCode: 'BCA', amount: 10000 });
          inquiryMs.push(Number(process.hrtime.bigint() - t) / 1e6);
          const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
          const res = await post('transfer', token, { ...fields, notifyUrl: 'http://127.0.0.1:9/cb' });
          if (res.status === 200) accepted++;
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await waitFor(async () => (await prisma.disbursement.count({ where: { status: 'success' } })) === accepted, 600_000, 'all final');
    const total = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    inquiryMs.sort((a, b) => a - b);
    const pct = (p: number, xs = latencies) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))].toFixed(0);
    console.log(`inquiry + transfer over HTTP: ${N} (${accepted} accepted) at concurrency ${C}: ${(N / seconds).toFixed(0)} transfers/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms (inquiry + transfer round trip; inquiry alone p50 ${pct(50, inquiryMs)} ms)`);
    console.log(`all ${accepted} paid out (success) after ${total.toFixed(1)} s = ${(accepted / total).toFixed(0)} payouts/s end to end`);
  } finally {
    await stack.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
