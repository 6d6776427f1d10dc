import { busConfigSchema } from './bus-config.schema';

describe('busConfigSchema', () => {
  it('accepts a redis-streams config and coerces numbers given as text', () => {
    const parsed = busConfigSchema.parse({
      kind: 'redis-streams',
      redisUrl: 'redis://127.0.0.1:6379',
      keyPrefix: 'dev:',
      partitions: '12',
    });
    expect(parsed).toEqual({
      kind: 'redis-streams',
      redisUrl: 'redis://127.0.0.1:6379',
      keyPrefix: 'dev:',
      partitions: 12,
    });
  });

  it('accepts kafka brokers as a comma-separated string', () => {
    const parsed = busConfigSchema.parse({ kind: 'kafka', brokers: 'k1:9092, k2:9092', clientId: 'ledger' });
    expect(parsed.kind === 'kafka' && parsed.brokers).toEqual(['k1:9092', 'k2:9092']);
  });

  it('names the bad setting', () => {
    const result = busConfigSchema.safeParse({ kind: 'kafka', brokers: '', clientId: 'ledger' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('brokers');
  });

  it('rejects an unknown transport kind', () => {
    expect(busConfigSchema.safeParse({ kind: 'rabbit' }).success).toBe(false);
  });

  it('rejects a non-positive partition count', () => {
    expect(busConfigSchema.safeParse({ kind: 'redis-streams', redisUrl: 'redis://x', partitions: 0 }).success).toBe(
      false,
    );
  });

  it('accepts Kafka TLS as PEM texts, OAUTHBEARER with a token file, and environment prefixes', () => {
    const parsed = busConfigSchema.parse({
      kind: 'kafka',
      brokers: 'k1:9093',
      clientId: 'payments-ledger-pod-1',
      ssl: { ca: '-----BEGIN CERTIFICATE-----', rejectUnauthorized: true },
      sasl: { mechanism: 'oauthbearer', tokenFile: '/var/run/secrets/kafka/token' },
      topicPrefix: 'staging.',
      groupPrefix: 'staging.',
    });
    expect(parsed).toMatchObject({
      ssl: { ca: '-----BEGIN CERTIFICATE-----' },
      sasl: { mechanism: 'oauthbearer', tokenFile: '/var/run/secrets/kafka/token' },
      topicPrefix: 'staging.',
    });
  });

  it('refuses a prefix Kafka would refuse in a name, and OAUTHBEARER without its token file', () => {
    const result = busConfigSchema.safeParse({
      kind: 'kafka',
      brokers: 'k1:9093',
      clientId: 'c',
      topicPrefix: 'staging/',
      sasl: { mechanism: 'oauthbearer' },
    });
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['sasl.tokenFile', 'topicPrefix']);
  });
});
