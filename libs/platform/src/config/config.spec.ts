import { z } from 'zod';
import { ConfigError, loadConfig, port, postgresUrl } from './config';

const schema = z.object({ DATABASE_URL: postgresUrl(), OPS_PORT: port() });

describe('loadConfig', () => {
  it('parses a good environment', () => {
    expect(loadConfig(schema, { DATABASE_URL: 'postgresql://u:p@db:5432/pay', OPS_PORT: '9100' })).toEqual({
      DATABASE_URL: 'postgresql://u:p@db:5432/pay',
      OPS_PORT: 9100,
    });
  });

  it('names every bad or missing setting', () => {
    try {
      loadConfig(schema, { DATABASE_URL: 'mysql://nope' });
      throw new Error('expected ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      expect(message).toContain('DATABASE_URL: must be a PostgreSQL URL');
      expect(message).toContain('OPS_PORT: is required');
    }
  });
});
