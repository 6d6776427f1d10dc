import { accessSync, constants, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { bool, configSection, redisUrl } from '@pay/platform';
import { z } from 'zod';
import { type BusConfig, busConfigSchema } from './bus-config.schema';

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** Structural, not `instanceof Error`: errors of Node's core modules may come from another realm. */
const reason = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'message' in err ? String(err.message) : String(err);

/** A PEM file, read once at start-up: a missing or unreadable file stops the service with the setting named. */
const pemFile = z
  .string()
  .transform((path, ctx) => {
    try {
      const pem = readFileSync(path, 'utf8');
      if (!pem.includes('-----BEGIN '))
        ctx.addIssue({ code: 'custom', message: `${path} is not a PEM file (no -----BEGIN line)` });
      return pem;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `cannot read ${path}: ${reason(err)}` });
      return z.NEVER;
    }
  })
  .meta({ typeText: 'path of a PEM file (read at start-up)' });

/** A file read again on every use (a rotated token): only checked to be readable at start-up. */
const readableFile = z
  .string()
  .superRefine((path, ctx) => {
    try {
      accessSync(path, constants.R_OK);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `cannot read ${path}: ${reason(err)}` });
    }
  })
  .meta({ typeText: 'path of a readable file' });

const namePrefix = z
  .string()
  .regex(/^[a-zA-Z0-9._-]{1,64}$/, 'only letters, digits, ".", "_" and "-" (at most 64)')
  .meta({ typeText: 'letters, digits, `.`, `_`, `-` (at most 64)' });

/**
 * The bus settings as environment variables, shared by every service. Apps spread this into
 * their start-up schema, pass the result through `refineBusEnv`, and build the transport
 * config with `busConfigFromEnv` (the library itself never reads process.env).
 */
export const busEnvShape = configSection('bus', {
  BUS_TRANSPORT: z
    .enum(['redis-streams', 'kafka'])
    .default('redis-streams')
    .meta({ description: 'The bus: Redis Streams (development, tests) or Kafka (production)' }),
  BUS_REDIS_URL: redisUrl()
    .optional()
    .meta({ description: 'Redis for the Streams transport', defaultText: '`REDIS_URL`' }),
  BUS_KEY_PREFIX: z
    .string()
    .min(1)
    .default('bus:')
    .meta({ description: 'Prefix of every stream, lease and group key (isolates environments sharing one Redis)' }),
  BUS_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(12).meta({
    description: 'Partitions per topic (Redis Streams: streams per topic; Kafka: partitions when topics are created)',
  }),
  BUS_MAX_DELIVERIES: z.coerce.number().int().min(1).max(1000).default(10).meta({
    description:
      'Deliveries of a message failing with an *unknown* error (a bug) before `<topic>.dlq`; a dependency away (transient) is retried without limit and never counted, a message that can never succeed (permanent) goes to the DLQ at once',
  }),
  BUS_LEASE_TTL_MS: z.coerce.number().int().min(500).max(600_000).default(10_000).meta({
    description: 'Redis Streams: how long a dead consumer keeps its partitions before another member takes them over',
  }),
  BUS_REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(5).default(0).meta({
    description:
      "Redis Streams: replicas that must hold a publish before the outbox marks it (Redis WAIT; 0: the primary's answer). 1 behind Sentinel or any replicated Redis",
  }),
  BUS_REDIS_WAIT_MS: ms(10, 10_000, 1_000).meta({
    description:
      "Redis Streams: how long a publish waits for BUS_REDIS_WAIT_REPLICAS before it fails and is sent again (at most 10 s, inside the connection's 15 s socket timeout)",
  }),
  KAFKA_BROKERS: z.string().optional().meta({
    description: 'The Kafka brokers, comma-separated `host:port`',
    requiredWhen: 'with BUS_TRANSPORT=kafka',
  }),
  KAFKA_CLIENT_ID: z
    .string()
    .min(1)
    .default('payments')
    .meta({ description: "Prefix of the client id; the service name and the pod's host name are appended" }),
  KAFKA_SESSION_TIMEOUT_MS: ms(6_000, 1_800_000, 30_000).meta({
    description:
      "Kafka: how long a dead consumer keeps its partitions (the group session timeout); the broker's own bounds are 6 s to 30 min",
  }),
  KAFKA_CONNECTION_TIMEOUT_MS: ms(500, 60_000, 5_000).meta({
    description: "TCP (and TLS) connect to a broker; kafkajs's 1 s is short for a managed cluster across zones",
  }),
  KAFKA_AUTHENTICATION_TIMEOUT_MS: ms(1_000, 60_000, 10_000).meta({
    description: 'The SASL exchange on a new connection (an OAUTHBEARER token fetch included)',
  }),
  KAFKA_REQUEST_TIMEOUT_MS: ms(1_000, 300_000, 30_000).meta({
    description: "One request to a broker before it is retried; above the broker's own waits (acks=all)",
  }),
  KAFKA_SSL: bool()
    .default(false)
    .meta({ description: 'TLS to the brokers (system CAs unless KAFKA_SSL_CA_FILE); required with SASL' }),
  KAFKA_SSL_CA_FILE: pemFile
    .optional()
    .meta({ description: 'PEM CA bundle to trust instead of the system CAs (a private cluster CA)' }),
  KAFKA_SSL_CERT_FILE: pemFile.optional().meta({
    description: 'PEM client certificate for mutual TLS (with KAFKA_SSL_KEY_FILE: both or neither)',
  }),
  KAFKA_SSL_KEY_FILE: pemFile.optional().meta({
    description: 'PEM unencrypted client key for mutual TLS (with KAFKA_SSL_CERT_FILE: both or neither)',
  }),
  KAFKA_SSL_REJECT_UNAUTHORIZED: bool()
    .default(true)
    .meta({ description: "Verify the brokers' certificates", production: 'refuses `false`' }),
  KAFKA_SASL_MECHANISM: z
    .enum(['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer', 'aws-msk-iam'])
    .optional()
    .meta({ description: 'SASL on the Kafka connections; refused without KAFKA_SSL=true' }),
  KAFKA_SASL_USERNAME: z
    .string()
    .optional()
    .meta({ description: 'The SASL user', requiredWhen: 'with KAFKA_SASL_MECHANISM plain or scram-*' }),
  KAFKA_SASL_PASSWORD: z
    .string()
    .optional()
    .meta({ description: "The SASL user's password", requiredWhen: 'with KAFKA_SASL_MECHANISM plain or scram-*' }),
  KAFKA_OAUTH_TOKEN_FILE: readableFile.optional().meta({
    description: 'OAUTHBEARER: file holding the token, read on every authentication (a projected, rotated token)',
    requiredWhen: 'with KAFKA_SASL_MECHANISM=oauthbearer',
  }),
  KAFKA_ALLOW_SASL_PLAINTEXT: bool().default(false).meta({
    description: 'Local brokers only: SASL credentials over a plaintext connection',
    production: 'refuses `true`',
  }),
  KAFKA_AWS_REGION: z.string().min(1).optional().meta({
    description: "aws-msk-iam: the cluster's AWS region (credentials come from the AWS SDK's default chain)",
    requiredWhen: 'with KAFKA_SASL_MECHANISM=aws-msk-iam',
  }),
  KAFKA_TOPIC_PREFIX: namePrefix.optional().meta({
    description: 'Put before every topic name (and its .dlq): environments sharing a cluster, e.g. `staging.`',
  }),
  KAFKA_GROUP_PREFIX: namePrefix.optional().meta({
    description:
      "Put before every consumer group name; defaults to KAFKA_TOPIC_PREFIX so staging never joins production's groups",
    defaultText: '`KAFKA_TOPIC_PREFIX`',
  }),
  HOSTNAME: z.string().optional().meta({
    description: 'The pod name on Kubernetes; part of the client id (os.hostname() when unset)',
    defaultText: 'the host name',
    inEnvExample: false,
  }),
});

type BusEnv = z.output<z.ZodObject<typeof busEnvShape>> & { REDIS_URL?: string; NODE_ENV?: string };

function issue(ctx: z.RefinementCtx, path: keyof BusEnv, message: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message });
}

/** Cross-field rules: Kafka needs brokers; SASL needs its credentials and TLS; production refuses the local escapes. */
export function refineBusEnv(env: BusEnv, ctx: z.RefinementCtx): void {
  if (env.BUS_TRANSPORT !== 'kafka') {
    if (!env.BUS_REDIS_URL && !env.REDIS_URL)
      issue(ctx, 'BUS_REDIS_URL', 'is required (or REDIS_URL) when BUS_TRANSPORT=redis-streams');
    return;
  }
  const production = env.NODE_ENV === 'production';
  if (!env.KAFKA_BROKERS) issue(ctx, 'KAFKA_BROKERS', 'is required when BUS_TRANSPORT=kafka');
  const mechanism = env.KAFKA_SASL_MECHANISM;
  if (mechanism === 'oauthbearer') {
    if (!env.KAFKA_OAUTH_TOKEN_FILE)
      issue(ctx, 'KAFKA_OAUTH_TOKEN_FILE', 'is required with KAFKA_SASL_MECHANISM=oauthbearer');
  } else if (mechanism === 'aws-msk-iam') {
    if (!env.KAFKA_AWS_REGION) issue(ctx, 'KAFKA_AWS_REGION', 'is required with KAFKA_SASL_MECHANISM=aws-msk-iam');
  } else if (mechanism && (!env.KAFKA_SASL_USERNAME || !env.KAFKA_SASL_PASSWORD)) {
    issue(
      ctx,
      'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with KAFKA_SASL_MECHANISM',
    );
  }
  // Credentials (or a bearer token) in clear text on the network.
  if (mechanism && !env.KAFKA_SSL && !env.KAFKA_ALLOW_SASL_PLAINTEXT) {
    issue(
      ctx,
      'KAFKA_SSL',
      `must be true with KAFKA_SASL_MECHANISM=${mechanism} (SASL without TLS sends credentials in clear; KAFKA_ALLOW_SASL_PLAINTEXT=true for a local broker)`,
    );
  }
  if (production && env.KAFKA_ALLOW_SASL_PLAINTEXT)
    issue(ctx, 'KAFKA_ALLOW_SASL_PLAINTEXT', 'must not be true when NODE_ENV=production');
  if (production && !env.KAFKA_SSL_REJECT_UNAUTHORIZED)
    issue(ctx, 'KAFKA_SSL_REJECT_UNAUTHORIZED', 'must not be false when NODE_ENV=production');
  if (!env.KAFKA_SSL) {
    for (const name of ['KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'] as const) {
      if (env[name] !== undefined) issue(ctx, name, 'is set but KAFKA_SSL is not true');
    }
  }
  if ((env.KAFKA_SSL_CERT_FILE === undefined) !== (env.KAFKA_SSL_KEY_FILE === undefined)) {
    issue(
      ctx,
      env.KAFKA_SSL_CERT_FILE === undefined ? 'KAFKA_SSL_CERT_FILE' : 'KAFKA_SSL_KEY_FILE',
      'KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (mutual TLS)',
    );
  }
}

function kafkaSsl(env: BusEnv) {
  if (!env.KAFKA_SSL) return false;
  const {
    KAFKA_SSL_CA_FILE: ca,
    KAFKA_SSL_CERT_FILE: cert,
    KAFKA_SSL_KEY_FILE: key,
    KAFKA_SSL_REJECT_UNAUTHORIZED: rejectUnauthorized,
  } = env;
  if (!ca && !cert && rejectUnauthorized) return true;
  return { ca, cert, key, rejectUnauthorized };
}

function kafkaSasl(env: BusEnv) {
  const mechanism = env.KAFKA_SASL_MECHANISM;
  if (!mechanism) return undefined;
  if (mechanism === 'oauthbearer') return { mechanism, tokenFile: env.KAFKA_OAUTH_TOKEN_FILE };
  if (mechanism === 'aws-msk-iam') return { mechanism, region: env.KAFKA_AWS_REGION };
  return { mechanism, username: env.KAFKA_SASL_USERNAME, password: env.KAFKA_SASL_PASSWORD };
}

/**
 * The transport config of `service` (its name: `ledger`, `payout`, `workers`). On Kafka the
 * client id names the service and the pod, so broker logs, quotas and ACL denials point at one.
 */
export function busConfigFromEnv(env: BusEnv, service: string): BusConfig {
  const common = { partitions: env.BUS_PARTITIONS, maxDeliveries: env.BUS_MAX_DELIVERIES };
  if (env.BUS_TRANSPORT === 'kafka') {
    return busConfigSchema.parse({
      kind: 'kafka',
      brokers: env.KAFKA_BROKERS,
      clientId: `${env.KAFKA_CLIENT_ID}-${service}-${env.HOSTNAME ?? hostname()}`,
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      connectionTimeoutMs: env.KAFKA_CONNECTION_TIMEOUT_MS,
      authenticationTimeoutMs: env.KAFKA_AUTHENTICATION_TIMEOUT_MS,
      requestTimeoutMs: env.KAFKA_REQUEST_TIMEOUT_MS,
      ssl: kafkaSsl(env),
      sasl: kafkaSasl(env),
      topicPrefix: env.KAFKA_TOPIC_PREFIX,
      groupPrefix: env.KAFKA_GROUP_PREFIX ?? env.KAFKA_TOPIC_PREFIX,
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
    replicasToAck: env.BUS_REDIS_WAIT_REPLICAS,
    replicaAckTimeoutMs: env.BUS_REDIS_WAIT_MS,
    ...common,
  });
}
