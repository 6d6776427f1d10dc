import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { applyMigrations, createPrismaClient, ensureDatabase } from '@pay/persistence';
import { requireNodeVersion } from '@pay/platform';
import { repoRoot, seedDemoDashboardUsers, seedDemoMerchant } from '@pay/testing';
import { KafkaBroker, LocalStack, S3Proxy, type StackBus } from '@pay/devstack';

const env = process.env;
const root = repoRoot();
const databaseUrl = env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/payments_dev';
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const busKeyPrefix = env.BUS_KEY_PREFIX ?? 'dev:bus:';
const logDir = join(root, '.local', 'logs');
// The object store (S3Proxy, signatures checked, new random credentials per start); its files survive restarts.
const s3Dir = join(root, '.local', 's3proxy', 'dev');
// The operators' token of this local stack (ops API, Bull Board, the journeys suite).
const adminToken = env.ADMIN_TOKEN ?? `local_${randomBytes(24).toString('hex')}`;
// Redis Streams unless BUS_TRANSPORT=kafka; then KAFKA_BROKERS, or a broker of its own in .local/kafka/dev.
const busTransport = env.BUS_TRANSPORT ?? 'redis-streams';
const gatewayPort = Number(env.GATEWAY_PORT ?? 3000);
const gatewayInternalPort = Number(env.GATEWAY_INTERNAL_PORT ?? 3001);
// The session cookies are Secure: browsers take them over plain http from localhost (a local address) only.
const dashboardUrl = `http://localhost:${gatewayPort}/dashboard/`;
const consoleUrl = `http://localhost:${gatewayInternalPort}/console/`;

/** The bus of the local stack, and the broker started for it (stopped with the stack). */
async function startBus(): Promise<{ bus: StackBus; broker: KafkaBroker | null; where: string }> {
  if (busTransport === 'redis-streams')
    return {
      bus: { transport: 'redis-streams' },
      broker: null,
      where: `Redis Streams (${redisUrl}, ${busKeyPrefix}*)`,
    };
  if (busTransport !== 'kafka') throw new Error(`BUS_TRANSPORT must be redis-streams or kafka, not ${busTransport}`);
  if (env.KAFKA_BROKERS)
    return {
      bus: { transport: 'kafka', brokers: env.KAFKA_BROKERS },
      broker: null,
      where: `Kafka ${env.KAFKA_BROKERS}`,
    };
  const broker = await KafkaBroker.start({ dir: join(root, '.local', 'kafka', 'dev') });
  return {
    bus: { transport: 'kafka', brokers: broker.brokers },
    broker,
    where: `Kafka ${broker.brokers} (data and log in .local/kafka/dev)`,
  };
}

async function main(): Promise<void> {
  await ensureDatabase(databaseUrl);
  const migrations = await applyMigrations(databaseUrl, join(root, 'prisma', 'migrations'), (m) =>
    console.log(`  ${m}`),
  );
  console.log(
    `database ready (${migrations.applied.length} migration(s) applied now, ${migrations.alreadyApplied.length} before)`,
  );

  const { bus, broker, where } = await startBus();
  console.log(`bus ready: ${where}`);
  // One a previous run left behind (killed before its stop) holds the port and the files: it goes first.
  await S3Proxy.attach({ dir: s3Dir })?.stop();
  const stack = await LocalStack.start({
    databaseUrl,
    redisUrl,
    busKeyPrefix,
    bus,
    logDir,
    ports: { gateway: gatewayPort, ledger: 9101, payout: 9102, workers: 9103 },
    gatewayInternalPort,
    // Set-password links (admin user create) point at the pages as this machine's browser reaches them.
    // Payouts go over SNAP to a simulator the stack starts, unless SNAP_BASE_URL names a provider
    // (a bank's SNAP sandbox): then that provider with the SNAP_* settings and keys given here.
    env: {
      ADMIN_TOKEN: adminToken,
      DASHBOARD_PUBLIC_URL: dashboardUrl,
      CONSOLE_PUBLIC_URL: consoleUrl,
      ...givenProvider(),
    },
    s3Port: 9000,
    s3Directory: s3Dir,
  }).catch(async (err: unknown) => {
    await broker?.stop();
    throw err;
  });
  const stop = async () => {
    console.log('\nstopping…');
    await stack.stop();
    await broker?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  const prisma = createPrismaClient(databaseUrl, 2);
  const demo = await seedDemoMerchant(prisma, stack.gatewayUrl);
  const signIns = await seedDemoDashboardUsers(prisma, demo.merchantId);
  await prisma.$disconnect();

  const base = stack.gatewayUrl.replace('127.0.0.1', 'localhost');
  const internal = stack.internalUrl.replace('127.0.0.1', 'localhost');
  console.log(`
The payments platform is running.

  gateway   ${base}        (merchant API; Swagger UI ${base}/docs)
            ${internal}        (internal: acquirer notifications, /ops, /metrics)
  ledger    ${stack.opsUrl('ledger')}/readyz
  payout    ${stack.opsUrl('payout')}/readyz
  workers   ${stack.opsUrl('workers')}/readyz
  bus       ${where}
  S3        ${stack.s3.endpoint}  (S3Proxy: signed requests only; files in .local/s3proxy/dev)
  logs      ${logDir}/<service>.log
  database  ${databaseUrl}

Demo merchant #${demo.merchantId} "${demo.name}", token (shown once):

  ${demo.token}

Merchant dashboard  ${dashboardUrl}
  sign in as ${signIns.merchant.email}  password ${signIns.merchant.password}
Operator console    ${consoleUrl}   (internal port: operators only)
  sign in as ${signIns.operator.email}  password ${signIns.operator.password}
(New passwords on every start; more users: npm run admin -- user create --help)

Try it:

  curl -s -H 'token: ${demo.token}' ${base}/api/v1/payin/balance

  curl -s -H 'token: ${demo.token}' -H 'content-type: application/json' \\
    -d '{"merchantTrxId":"DEMO-PAYOUT-1","accountNo":"1234567890","bankCode":"BCA","amount":10000}' \\
    ${base}/api/v1/disbursement/account-inquiry

  (then POST the same fields plus accountName, platformTrxId and notifyUrl to
   ${base}/api/v1/disbursement/transfer, and poll /api/v1/disbursement/inquiry)

  curl -s -H 'token: ${demo.token}' -H 'content-type: application/json' \\
    -d '{"merchantTrxId":"ORDER-1","amount":50000}' ${base}/api/v1/payin/qris/generate
  curl -s -H 'token: ${demo.token}' -H 'content-type: application/json' \\
    -d '{"merchantTrxId":"ORDER-1"}' ${base}/api/v1/payin/qris/sandbox/pay

Admin CLI:  DATABASE_URL=${databaseUrl} npm run admin -- --help
Ops token:  ${adminToken}   (Bull Board: ${internal}/ops/queues, user admin)
Journeys against this stack:
  E2E_BASE_URL=${base} E2E_INTERNAL_URL=${internal} E2E_ADMIN_TOKEN=${adminToken} E2E_RECEIVER_HOST=127.0.0.1 npm run test:journeys
Press Ctrl-C to stop.`);
}

requireNodeVersion('local runner');
main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

/** The SNAP_* settings (and RAIL_SIMULATOR) of this environment, when it names a provider of its own. */
function givenProvider(): Record<string, string> {
  if (!process.env.SNAP_BASE_URL) return {};
  const given = Object.entries(process.env).filter(
    (e): e is [string, string] =>
      (e[0].startsWith('SNAP_') || e[0] === 'RAIL_SIMULATOR' || e[0] === 'QRIS_ACQUIRER') && e[1] !== undefined,
  );
  console.log(`payouts go to the SNAP provider at ${process.env.SNAP_BASE_URL} (SNAP_BASE_URL), not to a simulator`);
  return Object.fromEntries(given);
}
