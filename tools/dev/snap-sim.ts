import { join } from 'node:path';
import { ensureDatabase } from '@pay/persistence';
import { SnapSimulator } from '@pay/devstack';
import { repoRoot } from '@pay/testing';

const env = process.env;
const databaseUrl = env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/payments_dev';
// The gateway's internal port of `npm run start:local` receives QRIS payment notifications.
const notifyUrl = env.SNAP_SIM_NOTIFY_URL ?? 'http://127.0.0.1:3001/snap/v1.0/qr/qr-mpm-notify';
const port = Number(env.SNAP_SIM_PORT ?? 9110);
const dir = join(repoRoot(), 'tmp', 'snap-sim');

async function main(): Promise<void> {
  await ensureDatabase(databaseUrl);
  const sim = await SnapSimulator.start({
    databaseUrl,
    schema: 'snap_sim',
    notifyUrl,
    port,
    dir,
    delayMs: Number(env.SNAP_SIM_DELAY_MS ?? 5_000),
    hangMs: Number(env.SNAP_SIM_HANG_MS ?? 30_000),
    signatureMode: env.SNAP_SIM_SIGNATURE_MODE === 'asymmetric' ? 'asymmetric' : 'symmetric',
  });
  const stop = async () => {
    await sim.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  const settings = Object.entries(sim.env())
    .map(([k, v]) => `  ${k}=${v}`)
    .join('\n');
  console.log(`
The SNAP simulator is running (keys, secret and log in ${dir}; new keys every start).

  SNAP services  ${sim.baseUrl}/v1.0/...
  controls       ${sim.controlUrl}/executions, /notifications, /qris/pay, /source-account
  notifications  ${notifyUrl}

Our services reach it with:
${settings}

Ctrl-C stops it (and drops its schema).`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
