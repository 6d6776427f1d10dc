import { redisUrl } from '@pay/platform';
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
  redisUrl: redisUrl(),
  keyPrefix: z.string().min(1).optional(),
  blockMs: positiveInt.optional(),
  readCount: positiveInt.optional(),
  leaseTtlMs: positiveInt.optional(),
  heartbeatIntervalMs: positiveInt.optional(),
  maxLenPerPartition: positiveInt.optional(),
  replicasToAck: z.coerce.number().int().min(0).optional(),
  replicaAckTimeoutMs: positiveInt.optional(),
  ...commonSchema,
});

/** Accepts `"a:9092,b:9092"` as well as an array, since brokers usually arrive from one env variable. */
const brokersSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((b) => b.trim()).filter((b) => b.length > 0))
  .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'broker must be host:port')).min(1, 'at least one broker'));

/** TLS to the brokers: `true` trusts the system CAs; PEM texts (read from files at start-up) for a private CA or mutual TLS. */
const kafkaSslSchema = z.union([
  z.boolean(),
  z.object({
    ca: z.string().min(1).optional(),
    cert: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    rejectUnauthorized: z.boolean().optional(),
  }),
]);

const kafkaSaslSchema = z.discriminatedUnion('mechanism', [
  z.object({
    mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
    username: z.string().min(1),
    password: z.string().min(1),
  }),
  /** The token is read from this file on every authentication (a projected token the platform rotates). */
  z.object({ mechanism: z.literal('oauthbearer'), tokenFile: z.string().min(1) }),
  /** AWS MSK IAM: OAUTHBEARER with a token signed from the pod's AWS credentials (IRSA, instance role or env). */
  z.object({ mechanism: z.literal('aws-msk-iam'), region: z.string().min(1) }),
]);

/** Kafka's legal topic and group characters; the prefix is part of every name (e.g. `staging.`). */
const namePrefixSchema = z
  .string()
  .regex(/^[a-zA-Z0-9._-]*$/, 'only letters, digits, ".", "_" and "-"')
  .max(64);

export const kafkaConfigSchema = z.object({
  kind: z.literal('kafka'),
  brokers: brokersSchema,
  clientId: z.string().min(1),
  ssl: kafkaSslSchema.optional(),
  sasl: kafkaSaslSchema.optional(),
  topicPrefix: namePrefixSchema.optional(),
  groupPrefix: namePrefixSchema.optional(),
  createTopics: z.boolean().optional(),
  replicationFactor: positiveInt.optional(),
  partitionsConsumedConcurrently: positiveInt.optional(),
  sessionTimeoutMs: positiveInt.optional(),
  connectionTimeoutMs: positiveInt.optional(),
  authenticationTimeoutMs: positiveInt.optional(),
  requestTimeoutMs: positiveInt.optional(),
  ...commonSchema,
});

/** Apps embed this in their start-up config schema so a bad bus setting stops the service with its path named. */
export const busConfigSchema = z.discriminatedUnion('kind', [redisStreamsConfigSchema, kafkaConfigSchema]);

export type BusConfig = z.output<typeof busConfigSchema>;
export type RedisStreamsBusConfig = z.output<typeof redisStreamsConfigSchema>;
export type KafkaBusConfig = z.output<typeof kafkaConfigSchema>;
