import { z } from 'zod';

const positiveInt = z.coerce.number().int().positive();

const retryBackoffSchema = z.object({ initialMs: positiveInt, maxMs: positiveInt });

/** Tuning shared by both transports; every field has a default in the transport. */
const commonSchema = {
  partitions: positiveInt.optional(),
  maxDeliveries: positiveInt.optional(),
  retryBackoff: retryBackoffSchema.optional(),
};

export const redisStreamsConfigSchema = z.object({
  kind: z.literal('redis-streams'),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
  keyPrefix: z.string().min(1).optional(),
  blockMs: positiveInt.optional(),
  readCount: positiveInt.optional(),
  leaseTtlMs: positiveInt.optional(),
  heartbeatIntervalMs: positiveInt.optional(),
  maxLenPerPartition: positiveInt.optional(),
  ...commonSchema,
});

/** Accepts `"a:9092,b:9092"` as well as an array, since brokers usually arrive from one env variable. */
const brokersSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((b) => b.trim()).filter((b) => b.length > 0))
  .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'broker must be host:port')).min(1, 'at least one broker'));

export const kafkaConfigSchema = z.object({
  kind: z.literal('kafka'),
  brokers: brokersSchema,
  clientId: z.string().min(1),
  ssl: z.boolean().optional(),
  sasl: z
    .object({ mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']), username: z.string().min(1), password: z.string().min(1) })
    .optional(),
  createTopics: z.boolean().optional(),
  replicationFactor: positiveInt.optional(),
  partitionsConsumedConcurrently: positiveInt.optional(),
  sessionTimeoutMs: positiveInt.optional(),
  requestTimeoutMs: positiveInt.optional(),
  ...commonSchema,
});

/** Apps embed this in their start-up config schema so a bad bus setting stops the service with its path named. */
export const busConfigSchema = z.discriminatedUnion('kind', [redisStreamsConfigSchema, kafkaConfigSchema]);

export type BusConfig = z.output<typeof busConfigSchema>;
export type RedisStreamsBusConfig = z.output<typeof redisStreamsConfigSchema>;
export type KafkaBusConfig = z.output<typeof kafkaConfigSchema>;
