import { ConfigError, loadConfig } from '@pay/platform';
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

describe('payout configuration: the rail', () => {
  const problems = (env: Record<string, string>): string => {
    try {
      loadConfig(payoutConfigSchema, { DATABASE_URL: 'postgresql://u@db:5432/pay', ...env });
      return '';
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.message;
    }
  };

  it('the sandbox rail is not live, marked as a simulator or not', () => {
    for (const RAIL_SIMULATOR of ['true', 'false'])
      expect(
        loadConfig(payoutConfigSchema, { DATABASE_URL: 'postgresql://u@db:5432/pay', RAIL_SIMULATOR }).rail,
      ).toMatchObject({ provider: 'sandbox', live: false });
  });

  it('refuses the simulator marker RAIL_SIMULATOR=true in production, naming it', () => {
    expect(problems({ NODE_ENV: 'production', RAIL_SIMULATOR: 'true' })).toBe(
      'Invalid configuration:\n' +
        "  - RAIL_SIMULATOR: must not be true when NODE_ENV=production: production's rail is a bank's, and sandbox money must never be paid out over it",
    );
    expect(problems({ NODE_ENV: 'production' })).toBe('');
    expect(problems({ RAIL_SIMULATOR: 'true' })).toBe('');
  });
});
