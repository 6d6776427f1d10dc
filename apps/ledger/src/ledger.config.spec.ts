import { ConfigError, loadConfig } from '@pay/platform';
import { ledgerConfigSchema } from './ledger.config';

const base = { DATABASE_URL: 'postgresql://u@db:5432/pay' };

describe('ledger configuration', () => {
  it('reads the environment once into its typed sections, with the defaults', () => {
    expect(loadConfig(ledgerConfigSchema, base)).toEqual({
      environment: 'development',
      logging: { level: 'info' },
      shutdown: { timeoutMs: 20_000 },
      database: { url: 'postgresql://u@db:5432/pay?application_name=ledger', poolSize: 10, preparedStatements: true },
      ops: { port: 9101, host: '127.0.0.1' },
      bus: expect.objectContaining({ kind: 'redis-streams', redisUrl: 'redis://127.0.0.1:6379/0', keyPrefix: 'bus:' }),
      outbox: { pollIntervalMs: 5_000, batchSize: 200, lingerMs: 3 },
    });
  });

  it('refuses a bad setting by its variable name', () => {
    expect(() => loadConfig(ledgerConfigSchema, { ...base, OUTBOX_BATCH_SIZE: '5000' })).toThrow(ConfigError);
    expect(() => loadConfig(ledgerConfigSchema, { ...base, OUTBOX_BATCH_SIZE: '5000' })).toThrow(/OUTBOX_BATCH_SIZE: /);
  });
});
