import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createMerchantClient, type MerchantClient, unwrap } from '@pay/merchant-client';
import { composeTarget } from './target';

/**
 * SIGTERM drains (the compose stack of tools/containers/compose-test.sh): a transfer accepted just
 * before `docker stop` of the payout container is finished inside the stop grace period (the
 * process exits 0, not killed at the deadline) or resumed once the container starts again, and
 * the merchant is debited exactly once. Needs E2E_BASE_URL, E2E_INTERNAL_URL, E2E_ADMIN_TOKEN and
 * COMPOSE_PAYOUT_CONTAINER (its id); runs with jest.compose.config.js.
 */
const payout = process.env.COMPOSE_PAYOUT_CONTAINER as string;
const docker = process.env.DOCKER ?? 'docker';

async function eventually<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await probe();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 250));
    last = await probe();
  }
  return last;
}

describe('payout container stopped with a transfer in flight (SIGTERM)', () => {
  let client: MerchantClient;
  let merchantId: number;
  const { base, ops } = composeTarget();
  const balance = async () => unwrap(await client.GET('/api/v1/payin/balance')).balance;

  beforeAll(async () => {
    if (!payout) throw new Error('set COMPOSE_PAYOUT_CONTAINER (the payout container of the stack)');
    const merchant = await ops('merchants', { name: `Toko Drain ${randomUUID().slice(0, 6)}` });
    merchantId = Number(merchant.merchantId);
    client = createMerchantClient({ baseUrl: base, token: String(merchant.token) });
    // Funded as a merchant is: a paid QRIS, settled.
    unwrap(await client.POST('/api/v1/payin/qris/generate', { body: { merchantTrxId: 'DRAIN-IN', amount: 500000 } }));
    unwrap(await client.POST('/api/v1/payin/qris/sandbox/pay', { body: { merchantTrxId: 'DRAIN-IN' } }));
    await eventually('pending', balance, (b) => b.pending === 496350);
    await ops('settlements/run', { merchantId });
    await eventually('available', balance, (b) => b.available === 496350);
  });

  it('is completed once: the process drains within the grace period, or the restarted one finishes it', async () => {
    const merchantTrxId = `DRAIN-${randomUUID().slice(0, 8)}`;
    const quoted = unwrap(
      await client.POST('/api/v1/disbursement/account-inquiry', {
        body: { merchantTrxId, accountNo: '1234567890', bankCode: 'BCA', amount: 100000 },
      }),
    );
    const { fee: _fee, totalAmount: _total, ...fields } = quoted;
    const accepted = unwrap(
      await client.POST('/api/v1/disbursement/transfer', {
        body: { ...fields, notifyUrl: 'https://merchant.example/callback' },
      }),
    );
    expect(accepted.status).toBe('pending');

    const stopping = Date.now();
    execFileSync(docker, ['stop', payout]);
    const stopMs = Date.now() - stopping;
    const exitCode = Number(execFileSync(docker, ['inspect', '-f', '{{.State.ExitCode}}', payout]).toString().trim());
    execFileSync(docker, ['start', payout]);
    console.log(`payout stopped in ${stopMs} ms with exit code ${exitCode} (SIGTERM; the grace period is 30 s)`);
    // Exit 0: the service shut down on its own; 137 would be SIGKILL at the end of the grace period.
    expect(exitCode).toBe(0);

    const done = await eventually(
      'the transfer final',
      async () => unwrap(await client.POST('/api/v1/disbursement/inquiry', { body: { merchantTrxId } })),
      (d) => d.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'success', totalAmount: 102500 });
    // Debited once: the balance moved by exactly one transfer and its fee.
    expect(await balance()).toEqual({ available: 496350 - 102500, pending: 0 });
  });
});
