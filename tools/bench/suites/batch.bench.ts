import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LocalStack } from '@pay/devstack';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import {
  createMerchant,
  createTestDatabase,
  dropDatabase,
  fundMerchant,
  repoRoot,
  uniqueName,
  WebhookReceiver,
} from '@pay/testing';
import { BENCH_RATE_LIMITS, BENCH_REDIS_URL, runBench } from '../lib/harness';
import { printResults, recordNumbers } from '../lib/report';

/**
 * Batch payouts (issue 44) against the single-transfer path, in the same run, on one stack (the
 * four services as processes, the SNAP rail against its simulator):
 * - batch: one POST of ROWS rows; rows accepted per second = ROWS over the time to the answer
 *   (validation and the batch recorded with its rows), then the time from submission until every
 *   row is final (name check with the bank, the ledger's debit, the transfer), the batch completed;
 * - single: ROWS account inquiry + transfer pairs from CONCURRENCY clients (what a merchant does
 *   without batches); accepted per second = ROWS over the time until the last transfer is answered
 *   `pending`, then the time until every one is final.
 * ROUNDS rounds, the two alternating (both see the same background load), each merchant fresh.
 * Usage: npm run build && npm run bench -- batch [rows=1000] [concurrency=8] [rounds=2]
 */
const [ROWS = 1000, CONCURRENCY = 8, ROUNDS = 2] = process.argv.slice(2).map(Number);

type Path = 'batch' | 'single';
interface Result {
  acceptedPerS: number;
  finalS: number;
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const finalCount = async (prisma: PrismaClient, merchantId: number) =>
  prisma.disbursement.count({ where: { merchantId, status: { in: ['success', 'failed', 'refused'] } } });

async function batchRound(
  stack: LocalStack,
  prisma: PrismaClient,
  token: string,
  merchantId: number,
  notifyUrl: string,
) {
  const batchId = `BENCH-${randomUUID()}`;
  const rows = Array.from({ length: ROWS }, (_v, i) => ({
    merchantTrxId: `B-${randomUUID().slice(0, 18)}-${i}`,
    bankCode: i % 2 ? 'BRI' : 'BNI',
    accountNo: String(1_000_000_000 + i),
    amount: 10_000,
  }));
  const started = performance.now();
  const res = await fetch(`${stack.gatewayUrl}/api/v1/disbursement/batch`, {
    method: 'POST',
    headers: { token, 'content-type': 'application/json' },
    body: JSON.stringify({ batchId, notifyUrl, rows }),
  });
  const body = (await res.json()) as { data?: { accepted: number }; message: string };
  const answeredS = (performance.now() - started) / 1000;
  if (body.data?.accepted !== ROWS) throw new Error(`batch: ${body.message} (${body.data?.accepted} accepted)`);
  await waitUntil(
    async () => (await prisma.disbursementBatch.findFirst({ where: { merchantId, batchId } }))?.completedAt != null,
    'the batch completed',
  );
  return { acceptedPerS: ROWS / answeredS, finalS: (performance.now() - started) / 1000, answeredS };
}

async function singleRound(
  stack: LocalStack,
  prisma: PrismaClient,
  token: string,
  merchantId: number,
  notifyUrl: string,
) {
  const post = async (path: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/disbursement/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data?: Record<string, unknown>; message: string };
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < ROWS; i = next++) {
        const inq = await post('account-inquiry', {
          merchantTrxId: `S-${randomUUID().slice(0, 18)}-${i}`,
          accountNo: String(1_000_000_000 + i),
          bankCode: i % 2 ? 'BRI' : 'BNI',
          amount: 10_000,
        });
        if (!inq.data) throw new Error(`inquiry refused: ${inq.message}`);
        const { fee: _fee, totalAmount: _total, ...fields } = inq.data;
        const t = await post('transfer', { ...fields, notifyUrl });
        if (t.data?.status !== 'pending') throw new Error(`transfer refused: ${t.message}`);
      }
    }),
  );
  const answeredS = (performance.now() - started) / 1000;
  await waitUntil(async () => (await finalCount(prisma, merchantId)) >= ROWS, 'every transfer final');
  return { acceptedPerS: ROWS / answeredS, finalS: (performance.now() - started) / 1000, answeredS };
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 2);
  const receiver = await WebhookReceiver.start();
  const notifyUrl = `http://127.0.0.1:${new URL(receiver.url).port}/callback`;
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl: BENCH_REDIS_URL,
    busKeyPrefix: `${uniqueName('batch')}:`,
    logDir: join(repoRoot(), 'tmp', 'batch-bench-logs'),
    rail: 'snap',
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_READ_CONCURRENCY: '0', PAYOUT_BATCH_SIZE: '64' },
  });
  try {
    const rows: Record<string, string | number>[] = [];
    const results: Record<Path, Result[]> = { batch: [], single: [] };
    for (let r = 0; r < ROUNDS; r++)
      for (const path of ['batch', 'single'] as const) {
        const { merchant, token, admin } = await createMerchant(prisma);
        await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
        await fundMerchant(prisma, merchant.id, [BigInt(ROWS) * 20_000_00n]);
        const res = await (path === 'batch' ? batchRound : singleRound)(stack, prisma, token, merchant.id, notifyUrl);
        results[path].push(res);
        rows.push({
          round: r + 1,
          path,
          'answered (s)': Number(res.answeredS.toFixed(2)),
          'accepted rows/s': Math.round(res.acceptedPerS),
          'all final (s)': Number(res.finalS.toFixed(2)),
          'final rows/s': Math.round(ROWS / res.finalS),
        });
      }
    printResults(`batch: ${ROWS} rows a round; single: ${ROWS} inquiry + transfer pairs, ${CONCURRENCY} clients`, rows);
    const mean = (path: Path, key: keyof Result) =>
      results[path].reduce((s, x) => s + x[key], 0) / results[path].length;
    const summary = {
      'batch accepted rows/s': Math.round(mean('batch', 'acceptedPerS')),
      'single accepted rows/s': Math.round(mean('single', 'acceptedPerS')),
      'batch/single accepted': Number((mean('batch', 'acceptedPerS') / mean('single', 'acceptedPerS')).toFixed(1)),
      'batch all final (s)': Number(mean('batch', 'finalS').toFixed(2)),
      'single all final (s)': Number(mean('single', 'finalS').toFixed(2)),
      'single/batch time to final': Number((mean('single', 'finalS') / mean('batch', 'finalS')).toFixed(2)),
    };
    printResults('batch: summary', [summary]);
    recordNumbers('batch', summary);
  } finally {
    await stack.stop();
    await receiver.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
