import { z } from 'zod';
import { bindHost } from './bind-host';
import { bool, port, redisUrl } from './config';
import { configSection } from './setting-meta';

/** What every service process reads: its environment, its log level, its stop's deadline. */
export const serviceEnvShape = configSection('service', {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development').meta({
    description:
      '`production` turns on the production rules: the settings that say so below are then required, or refuse their local values',
  }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
    .default('info')
    .meta({ description: 'The least severe level logged; JSON lines on stdout' }),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000).meta({
    description:
      "How long a stop (SIGTERM) may take before the process exits 1 anyway, naming the step it waited on: shorter than the orchestrator's grace period, so the process says why, not SIGKILL",
  }),
});

type ServiceEnv = z.output<z.ZodObject<typeof serviceEnvShape>>;

/** The typed settings of serviceEnvShape, spread into an app's config. */
export function serviceSection(env: ServiceEnv) {
  return {
    environment: env.NODE_ENV,
    logging: { level: env.LOG_LEVEL },
    shutdown: { timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
  };
}

export const redisEnvShape = configSection('redis', {
  REDIS_URL: redisUrl().default('redis://127.0.0.1:6379/0').meta({
    description:
      "Redis for BullMQ and, by default, the bus: a server (`redis://`, `rediss://` for TLS), or the primary that Redis Sentinels name, `redis+sentinel://[[user]:password@]host:26379[,host:26379…]/<primary name>[/<db>]` (`rediss+sentinel://` for TLS): every connection asks the Sentinels for the primary and, after a failover, for the new one (decision 0015). The password (percent-encoded) is the servers' and the Sentinels'",
  }),
});

export interface RedisConfig {
  url: string;
}

export const redisSection = (env: { REDIS_URL: string }): RedisConfig => ({ url: env.REDIS_URL });

export const queueEnvShape = configSection('queues', {
  QUEUE_PREFIX: z
    .string()
    .min(1)
    .default('bull')
    .meta({ description: "BullMQ key prefix, so environments sharing one Redis never see each other's jobs" }),
});

export interface QueueConfig {
  prefix: string;
}

export const queueSection = (env: { QUEUE_PREFIX: string }): QueueConfig => ({ prefix: env.QUEUE_PREFIX });

/** The ops port of a service without a public HTTP API (ledger, payout, workers), `defaultPort` unless set. */
export const opsEnvShape = (defaultPort: number) =>
  configSection('ops', {
    OPS_PORT: port().default(defaultPort).meta({ description: 'The port of `/healthz`, `/readyz` and `/metrics`' }),
    OPS_HOST: bindHost().meta({
      description:
        'Bind address of the ops port (/healthz, /readyz, /metrics); loopback unless set (the image sets 0.0.0.0 for probes and Prometheus)',
    }),
  });

export interface OpsConfig {
  port: number;
  host: string;
}

export const opsSection = (env: { OPS_PORT: number; OPS_HOST: string }): OpsConfig => ({
  port: env.OPS_PORT,
  host: env.OPS_HOST,
});

/** A DNS host name: letters, digits and hyphens in dot-separated labels, not all digits (no IP literal). */
const HOST_NAME = /^(?=.*[a-z-])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A host name as a URL reads it back unchanged: not an IP address in any form a URL takes for one
 * (`0x7f.1` is 127.0.0.1, `e2e.0x1` no host at all), so the entry names the host a callback URL has.
 */
function isHostName(entry: string): boolean {
  if (!HOST_NAME.test(entry)) return false;
  try {
    return new URL(`http://${entry}/`).hostname === entry;
  } catch {
    return false;
  }
}

export const webhookEnvShape = configSection('webhooks', {
  WEBHOOK_ALLOW_LOOPBACK: bool().default(false).meta({
    description:
      'Webhook targets on loopback (127.0.0.0/8, ::1) are allowed only where this is true: tests and local runs, never NODE_ENV=production. Private, link-local and metadata addresses never are (but see WEBHOOK_ALLOW_PRIVATE_HOSTS)',
    production: 'refuses `true`',
  }),
  WEBHOOK_ALLOW_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string()).superRefine((entries, ctx) => {
        for (const entry of entries.filter((e) => !isHostName(e)))
          ctx.addIssue({
            code: 'custom',
            message: `"${entry}" is not a host name: each entry must be one (not an IP address, not a wildcard), e.g. e2e`,
          });
      }),
    )
    .meta({
      description:
        'TEST STACKS ONLY. Comma-separated host names (exact, case-insensitive) whose callbacks may resolve to private (RFC 1918) or unique-local addresses: the journeys in a container on a docker-compose network (docker-compose.e2e.yml sets `e2e`). Loopback, link-local and metadata addresses stay refused for them; every other host keeps the public-only rule. Empty: none',
      production: 'refuses any value',
    }),
});

/** NODE_ENV=production refuses the webhook settings that exist for tests: loopback and private hosts. */
export function refuseLoopbackInProduction(
  env: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK: boolean; WEBHOOK_ALLOW_PRIVATE_HOSTS: string[] },
  ctx: z.RefinementCtx,
): void {
  if (env.NODE_ENV !== 'production') return;
  if (env.WEBHOOK_ALLOW_LOOPBACK)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_LOOPBACK'],
      message: 'must not be true when NODE_ENV=production',
    });
  if (env.WEBHOOK_ALLOW_PRIVATE_HOSTS.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_PRIVATE_HOSTS'],
      message: 'must be empty when NODE_ENV=production (callbacks to private addresses are for test stacks only)',
    });
}
