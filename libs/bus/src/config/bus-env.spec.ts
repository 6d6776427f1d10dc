import { z } from 'zod';
import { busConfigFromEnv, busEnvShape, refineBusEnv } from './bus-env';

const schema = z.object(busEnvShape).superRefine(refineBusEnv);

describe('bus settings from the environment', () => {
  it('gives a Kafka transport the session timeout of KAFKA_SESSION_TIMEOUT_MS, 30 s when unset', () => {
    const kafka = { BUS_TRANSPORT: 'kafka', KAFKA_BROKERS: 'k1:9092,k2:9092' };
    expect(busConfigFromEnv(schema.parse({ ...kafka, KAFKA_SESSION_TIMEOUT_MS: '10000' }))).toMatchObject({ kind: 'kafka', brokers: ['k1:9092', 'k2:9092'], sessionTimeoutMs: 10_000 });
    expect(busConfigFromEnv(schema.parse(kafka))).toMatchObject({ sessionTimeoutMs: 30_000 });
  });

  it('refuses a session timeout the broker would refuse (below 6 s)', () => {
    const result = schema.safeParse({ BUS_TRANSPORT: 'kafka', KAFKA_BROKERS: 'k1:9092', KAFKA_SESSION_TIMEOUT_MS: '2000' });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['KAFKA_SESSION_TIMEOUT_MS']);
  });
});
