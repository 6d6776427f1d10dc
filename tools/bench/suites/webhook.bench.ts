import { join } from 'node:path';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, repoRoot, uniqueName, waitFor, WebhookReceiver } from '@pay/testing';
import { LocalStack } from '@pay/devstack';
import { callbackRows, insertCallbacks } from '../lib/callbacks';
import { cpuPerUnit, sampleCpu } from '../lib/cpu';
import { runBench } from '../lib/harness';
import { recordNumbers } from '../lib/report';

/**
 * Webhook delivery throughput through the workers process: N disbursement callbacks written as
 * the payout service writes them (delivery rows, due now, 500 per statement, each statement's
 * commit waking the dispatcher), each sent signed to a local receiver that answers 200, its
 * attempt recorded. Prints callbacks per second, attempt latency and CPU per callback. The
 * deliveries are one merchant's, so its cap of attempts in flight (WEBHOOK_MERCHANT_CONCURRENCY,
 * 5; from the environment when set there) bounds the rate.
 * Usage: npm run build && npm run bench -- webhook [deliveries=2000] [concurrency=20]
 */
const [N = 2000, C = 20] = process.argv.slice(2).map(Number);
const PER_MERCHANT = process.env.WEBHOOK_MERCHANT_CONCURRENCY ?? '5';

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  const receiver = await WebhookReceiver.start();
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl: 'redis://127.0.0.1:6379/0',
    busKeyPrefix: `${uniqueName('bench')}:`,
    logDir: join(repoRoot(), 'tmp', 'bench-logs'),
    env: { LOG_LEVEL: 'warn', WEBHOOK_CONCURRENCY: String(C), WEBHOOK_MERCHANT_CONCURRENCY: PER_MERCHANT },
  });
  try {
    const { merchant } = await createMerchant(prisma);
    const rows = callbackRows(merchant, N);
    const before = sampleCpu(stack);
    const started = process.hrtime.bigint();
    await insertCallbacks(prisma, merchant.id, receiver.url, rows);
    await waitFor(
      async () => (await prisma.webhookDelivery.count({ where: { status: 'delivered' } })) >= N,
      600_000,
      'all delivered and recorded',
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = cpuPerUnit(before, sampleCpu(stack), N);
    const latencies = (await prisma.webhookAttempt.findMany({ select: { latencyMs: true } }))
      .map((a) => a.latencyMs)
      .sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    console.log(
      `webhooks through the workers process: ${N} deliveries -> ${receiver.requests.length} callbacks in ${seconds.toFixed(1)} s = ${(N / seconds).toFixed(0)}/s ` +
        `(WEBHOOK_CONCURRENCY ${C}, WEBHOOK_MERCHANT_CONCURRENCY ${PER_MERCHANT}); HTTP attempt p50 ${pct(50)} ms, p99 ${pct(99)} ms; CPU ms per callback: workers ${cpu.workers}, postgres ${cpu.postgres}, load generator ${cpu.loadGenerator}`,
    );
    recordNumbers('webhooks through the workers process', {
      callbacks: receiver.requests.length,
      seconds: Number(seconds.toFixed(1)),
      perSecond: Math.round(N / seconds),
      attemptP50ms: pct(50),
      attemptP99ms: pct(99),
    });
    recordNumbers('CPU ms per callback', cpu);
  } finally {
    await stack.stop();
    await receiver.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
