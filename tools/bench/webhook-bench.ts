import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createTransport } from '@pay/bus';
import { type PayoutEventMessage, PayoutEventType, Topic } from '@pay/contracts';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, LocalStack, repoRoot, uniqueName, waitFor, WebhookReceiver } from '@pay/testing';
import { runScript } from './harness';

/**
 * Webhook delivery throughput through the workers process: N outcome events published on
 * payout.events (Redis Streams), each turned into a signed callback to a local receiver that
 * answers 200. Prints numbers.
 * Usage: npm run build && node dist/tools/bench/webhook-bench.js [deliveries=2000] [concurrency=20]
 */
const [N = 2000, C = 20] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  const redisUrl = 'redis://127.0.0.1:6379/0';
  const prefix = `${uniqueName('bench')}:`;
  const receiver = await WebhookReceiver.start();
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl,
    busKeyPrefix: prefix,
    logDir: join(repoRoot(), 'tmp', 'bench-logs'),
    env: { LOG_LEVEL: 'warn', WEBHOOK_CONCURRENCY: String(C) },
  });
  const transport = createTransport({ kind: 'redis-streams', redisUrl, keyPrefix: prefix, partitions: 12 });
  try {
    const { merchant } = await createMerchant(prisma);
    const events: PayoutEventMessage[] = Array.from({ length: N }, (_, i) => {
      const id = randomUUID();
      return {
        eventId: `disbursement.${id}.success`, type: PayoutEventType.DisbursementSucceeded, disbursementId: id, merchantId: merchant.id,
        merchantTrxId: `INV-${i}`, platformTrxId: 'DSB1', bankCode: 'BCA', accountNo: '1234567890', accountName: 'BUDI SANTOSO',
        amount: '1000000', fee: '250000', feeFixed: '250000', totalAmount: '1250000', status: 'success', successAt: new Date().toISOString(),
        failureReason: null, notifyUrl: receiver.url, occurredAt: new Date().toISOString(),
      };
    });
    const started = process.hrtime.bigint();
    for (let i = 0; i < N; i += 500) {
      await transport.publish(Topic.PayoutEvents, events.slice(i, i + 500).map((e) => ({ key: String(e.merchantId), value: JSON.stringify(e) })));
    }
    await waitFor(async () => receiver.requests.length >= N, 600_000, 'all delivered');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const latencies = (await prisma.webhookAttempt.findMany({ select: { latencyMs: true } })).map((a) => a.latencyMs).sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    console.log(`webhooks through the workers process: ${N} events -> ${receiver.requests.length} callbacks in ${seconds.toFixed(1)} s = ${(N / seconds).toFixed(0)}/s (WEBHOOK_CONCURRENCY ${C}); HTTP attempt p50 ${pct(50)} ms, p99 ${pct(99)} ms`);
  } finally {
    await transport.close();
    await stack.stop();
    await receiver.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runScript(main);
