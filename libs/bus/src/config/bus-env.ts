import { z } from 'zod';
import { type BusConfig, busConfigSchema } from './bus-config.schema';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * The bus settings as environment variables, shared by every service. Apps spread this into
 * their start-up schema, pass the result through `refineBusEnv`, and build the transport
 * config with `busConfigFromEnv` (the library itself never reads process.env).
 */
export const busEnvShape = {
  BUS_TRANSPORT: z.enum(['redis-streams', 'kafka']).default('redis-streams'),
  BUS_REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a Redis URL like redis://host:6379/0').optional(),
  BUS_KEY_PREFIX: z.string().min(1).default('bus:'),
  BUS_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(12),
  BUS_MAX_DELIVERIES: z.coerce.number().int().min(1).max(1000).default(10),
  /** Redis Streams: how long a dead consumer keeps its partitions before another member takes them over */
  BUS_LEASE_TTL_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_CLIENT_ID: z.string().min(1).default('payments'),
  /** Kafka: how long a dead consumer keeps its partitions (the group session timeout); the broker's own bounds are 6 s to 30 min */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(1_800_000).default(30_000),
  KAFKA_SSL: flag.default(false),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
};

type BusEnv = z.output<z.ZodObject<typeof busEnvShape>> & { REDIS_URL?: string };

/** Cross-field rules: Kafka needs brokers; SASL needs all three settings. */
export function refineBusEnv(env: BusEnv, ctx: z.RefinementCtx): void {
  if (env.BUS_TRANSPORT === 'kafka') {
    if (!env.KAFKA_BROKERS) ctx.addIssue({ code: 'custom', path: ['KAFKA_BROKERS'], message: 'is required when BUS_TRANSPORT=kafka' });
    if (env.KAFKA_SASL_MECHANISM && (!env.KAFKA_SASL_USERNAME || !env.KAFKA_SASL_PASSWORD)) {
      ctx.addIssue({ code: 'custom', path: ['KAFKA_SASL_USERNAME'], message: 'KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with KAFKA_SASL_MECHANISM' });
    }
  } else if (!env.BUS_REDIS_URL && !env.REDIS_URL) {
    ctx.addIssue({ code: 'custom', path: ['BUS_REDIS_URL'], message: 'is required (or REDIS_URL) when BUS_TRANSPORT=redis-streams' });
  }
}

export function busConfigFromEnv(env: BusEnv): BusConfig {
  const common = { partitions: env.BUS_PARTITIONS, maxDeliveries: env.BUS_MAX_DELIVERIES };
  if (env.BUS_TRANSPORT === 'kafka') {
    return busConfigSchema.parse({
      kind: 'kafka',
      brokers: env.KAFKA_BROKERS,
      clientId: env.KAFKA_CLIENT_ID,
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      ssl: env.KAFKA_SSL,
      sasl: env.KAFKA_SASL_MECHANISM
        ? { mechanism: env.KAFKA_SASL_MECHANISM, username: env.KAFKA_SASL_USERNAME, password: env.KAFKA_SASL_PASSWORD }
        : undefined,
      ...common,
    });
  }
  return busConfigSchema.parse({
    kind: 'redis-streams',
    redisUrl: env.BUS_REDIS_URL ?? env.REDIS_URL,
    keyPrefix: env.BUS_KEY_PREFIX,
    leaseTtlMs: env.BUS_LEASE_TTL_MS,
    // Renew well inside the lease so a slow tick never loses it.
    heartbeatIntervalMs: Math.max(100, Math.floor(env.BUS_LEASE_TTL_MS / 4)),
    ...common,
  });
}
