import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createTestDatabase, runChaos, WebhookReceiver } from '@pay/testing';
import { runScript, startBenchStack } from '../bench/harness';

/**
 * The full chaos run: N transfers and pay-ins across M merchants while K random services are
 * SIGKILLed and restarted, then every invariant checked. Prints a table and JSON; exits 1 on
 * any violation.
 * Usage: npm run build && node dist/tools/chaos/chaos.js [transfers=10000] [payins=2000] [kills=20] [merchants=50] [seed]
 */
const [T = 10_000, P = 2_000, K = 20, M = 50, S = Date.now() % 1_000_000] = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_chaos');
  const prisma = createPrismaClient(databaseUrl, 4);
  const receiver = await WebhookReceiver.start();
  const stack = await startBenchStack(databaseUrl, { BUS_LEASE_TTL_MS: '2000', RAIL_SANDBOX_LATENCY_MS: '5', RAIL_SANDBOX_DELAY_MS: '500', PAYOUT_LEASE_MS: '2000', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_GRACE_MS: '1000', WEBHOOK_DISPATCH_INTERVAL_MS: '250' }, 'chaos');
  try {
    const report = await runChaos(stack, prisma, receiver, { merchants: M, transfers: T, payins: P, kills: K, concurrency: 12, seed: S, log: (l) => console.log(l) });
    console.table([{ seed: report.seed, transfersAccepted: report.transfersAccepted, transfersRefused: report.transfersRefused, payinsPaid: report.payinsPaid, kills: report.kills.length, violations: report.violations.length, seconds: report.seconds }]);
    console.log(JSON.stringify(report));
    process.exitCode = report.violations.length ? 1 : 0;
  } finally {
    await stack.stop();
    await receiver.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runScript(main);
