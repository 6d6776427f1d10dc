import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { readSnapCredentials, type SnapRailConfig } from '@pay/bank-rail';
import { LocalStack, SnapSimulator } from '@pay/devstack';
import { createPrismaClient } from '@pay/persistence';
import { SnapClient } from '@pay/snap';
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
 * The SNAP rail against the in-process sandbox rail, in the same run: the same merchants send
 * inquiry + transfer pairs with CONCURRENCY clients, first on one rail then on the other, ROUNDS
 * times alternating (so both see the same background load of a shared machine); each round on a
 * new stack. Accepted/s counts transfers answered `pending`; paid/s counts them to `success`
 * (the payout service through the rail: the simulator answers over HTTP, checks every signature
 * and keeps its own Postgres record). Target: SNAP accepted/s >= 0.8x the sandbox's.
 * Then the SNAP client's own CPU per call: CALLS account inquiries (16) from this process to the
 * simulator (its own process), process.cpuUsage() before and after: signing, serialising, HTTP.
 * Usage: npm run build && npm run bench -- rail [transfers per round=300] [concurrency=8] [rounds=2] [client calls=2000]
 */
const [TRANSFERS = 300, CONCURRENCY = 8, ROUNDS = 2, CALLS = 2000] = process.argv.slice(2).map(Number);
const TARGET = 0.8;
const MERCHANTS = 4;

type Rail = 'sandbox' | 'snap';

async function round(
  databaseUrl: string,
  rail: Rail,
  tokens: string[],
  notifyUrl: string,
): Promise<{ acceptedPerS: number; paidPerS: number }> {
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl: BENCH_REDIS_URL,
    busKeyPrefix: `${uniqueName(`rail-${rail}`)}:`,
    logDir: join(repoRoot(), 'tmp', 'rail-bench-logs', rail),
    rail,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_READ_CONCURRENCY: '0', RAIL_SANDBOX_LATENCY_MS: '0', PAYOUT_BATCH_SIZE: '64' },
  });
  const post = async (path: string, token: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/disbursement/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data?: Record<string, unknown>; status: boolean; message: string };
  };
  try {
    const ids: string[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_c, client) => {
        for (let i = next++; i < TRANSFERS; i = next++) {
          const token = tokens[(client + i) % tokens.length];
          const inq = await post('account-inquiry', token, {
            merchantTrxId: `R-${randomUUID().slice(0, 16)}`,
            accountNo: String(1_000_000_000 + i),
            bankCode: i % 2 ? 'BRI' : 'BNI',
            amount: 10_000,
          });
          if (!inq.data) throw new Error(`inquiry refused: ${inq.message}`);
          const { fee: _fee, totalAmount: _total, ...fields } = inq.data;
          const t = await post('transfer', token, { ...fields, notifyUrl });
          if (t.data?.status !== 'pending') throw new Error(`transfer refused: ${t.message}`);
          ids.push(String(t.data.platformTrxId));
        }
      }),
    );
    const acceptedS = (performance.now() - started) / 1000;
    const prisma = createPrismaClient(databaseUrl, 2);
    try {
      for (;;) {
        const pending = await prisma.disbursement.count({ where: { platformTrxId: { in: ids }, status: 'pending' } });
        if (pending === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await prisma.$disconnect();
    }
    const paidS = (performance.now() - started) / 1000;
    return { acceptedPerS: TRANSFERS / acceptedS, paidPerS: TRANSFERS / paidS };
  } finally {
    await stack.stop();
  }
}

/** The SNAP client's own CPU per call, against the simulator in its own process. */
async function clientCpu(databaseUrl: string): Promise<{ cpuUsPerCall: number; callsPerS: number }> {
  const sim = await SnapSimulator.start({ databaseUrl });
  const env = sim.env();
  const files: SnapRailConfig['files'] = {
    clientSecret: env.SNAP_CLIENT_SECRET_FILE,
    privateKey: env.SNAP_PRIVATE_KEY_FILE,
  };
  const creds = readSnapCredentials(files);
  const client = new SnapClient({
    provider: 'bench',
    baseUrl: sim.baseUrl,
    clientId: sim.clientId,
    clientSecret: creds.clientSecret,
    privateKeyPem: creds.privateKeyPem,
    channelId: sim.channelId,
  });
  try {
    const call = (i: number) =>
      client.call('accountInquiryExternal', {
        beneficiaryBankCode: '002',
        beneficiaryAccountNo: String(2_000_000_000 + i),
      });
    await Promise.all(Array.from({ length: 100 }, (_x, i) => call(i))); // warm-up, token fetched
    const cpu = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < CALLS; i = next++) {
          const r = await call(i);
          if (r.kind !== 'answer' || r.class.kind !== 'success') throw new Error(`call ${i}: ${r.kind}`);
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    return {
      cpuUsPerCall: (used.user + used.system) / CALLS,
      callsPerS: CALLS / ((performance.now() - started) / 1000),
    };
  } finally {
    client.close();
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 2);
  const receiver = await WebhookReceiver.start();
  const notifyUrl = `http://127.0.0.1:${new URL(receiver.url).port}/callback`;
  try {
    const tokens: string[] = [];
    for (let i = 0; i < MERCHANTS; i++) {
      const { merchant, token, admin } = await createMerchant(prisma);
      await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
      await fundMerchant(prisma, merchant.id, [100_000_000_00n]);
      tokens.push(token);
    }
    const rows: Record<string, string | number>[] = [];
    const results: Record<Rail, { acceptedPerS: number; paidPerS: number }[]> = { sandbox: [], snap: [] };
    for (let r = 0; r < ROUNDS; r++)
      for (const rail of ['sandbox', 'snap'] as const) {
        const res = await round(databaseUrl, rail, tokens, notifyUrl);
        results[rail].push(res);
        rows.push({
          round: r + 1,
          rail,
          'accepted/s': Math.round(res.acceptedPerS),
          'paid/s': Math.round(res.paidPerS),
        });
      }
    const mean = (rail: Rail, key: 'acceptedPerS' | 'paidPerS') =>
      results[rail].reduce((s, x) => s + x[key], 0) / results[rail].length;
    const ratio = mean('snap', 'acceptedPerS') / mean('sandbox', 'acceptedPerS');
    printResults(`rail: ${TRANSFERS} transfers a round, ${CONCURRENCY} clients`, rows);
    const cpu = await clientCpu(databaseUrl);
    const summary = {
      'sandbox accepted/s': Math.round(mean('sandbox', 'acceptedPerS')),
      'snap accepted/s': Math.round(mean('snap', 'acceptedPerS')),
      'snap/sandbox accepted': Number(ratio.toFixed(2)),
      target: `>= ${TARGET}`,
      met: ratio >= TARGET ? 'yes' : 'no',
      'sandbox paid/s': Math.round(mean('sandbox', 'paidPerS')),
      'snap paid/s': Math.round(mean('snap', 'paidPerS')),
      'snap client CPU per call (us)': Math.round(cpu.cpuUsPerCall),
      'snap client calls/s (8 in flight)': Math.round(cpu.callsPerS),
    };
    printResults('rail: summary', [summary]);
    recordNumbers('rail', summary);
  } finally {
    await receiver.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
