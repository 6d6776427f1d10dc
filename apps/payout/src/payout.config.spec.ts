import { loadConfig } from '@pay/platform';
import { payoutConfigSchema } from './payout.config';

describe('payout configuration', () => {
  it('reads its own settings, the rail and the relay into their sections', () => {
    const config = loadConfig(payoutConfigSchema, {
      DATABASE_URL: 'postgresql://u@db:5432/pay',
      PAYOUT_BATCH_SIZE: '32',
      RAIL_SANDBOX_DELAY_MS: '0',
    });
    expect(config).toMatchObject({
      database: { url: 'postgresql://u@db:5432/pay?application_name=payout' },
      ops: { port: 9102 },
      payouts: { pollIntervalMs: 5_000, batchSize: 32, leaseMs: 30_000, timeoutRetryMs: 2_000 },
      rail: { provider: 'sandbox', sandbox: { latencyMs: 100, delayMs: 0 } },
      outbox: { batchSize: 200 },
    });
  });
});
