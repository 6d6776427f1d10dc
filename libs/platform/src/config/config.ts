import { z } from 'zod';
import { isSentinelUrl, sentinelOptions } from '../queues/redis-url';
import { bindHost } from './bind-host';

/** A setting that is missing or malformed. The message names every offending setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against an app's schema once, at start-up. Nothing reads
 * process.env after this; the parsed object is passed to whoever needs a setting.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // An empty value (KEY= in an env file) means "not set", so the default applies.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const received = env[String(issue.path[0])];
    if (issue.code === 'custom' || received !== undefined) return `${name}: ${issue.message}`;
    return `${name}: is required (${issue.message})`;
  });
  throw new ConfigError([...new Set(problems)]);
}

const POSTGRES_URL = /^postgres(?:ql)?:\/\/[^\s/]+\/[^\s/?]+(\?\S*)?$/;

export const bool = () => z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A Redis server's URL, or Sentinels' (redis+sentinel://, see sentinelOptions), checked whole. */
export const redisUrl = () =>
  z
    .string()
    .regex(
      /^rediss?(\+sentinel)?:\/\/\S+$/,
      'must be a Redis URL like redis://host:6379/0, or redis+sentinel://host:26379[,host:26379]/<primary name>[/<db>]',
    )
    .superRefine((value, ctx) => {
      if (!isSentinelUrl(value)) return;
      try {
        sentinelOptions(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    });

/** Settings every service shares. Each app extends this with its own. */
export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(POSTGRES_URL, 'must be a PostgreSQL URL like postgresql://user:password@host:5432/database')
    .refine((v) => {
      try {
        return new URL(v).hostname.length > 0;
      } catch {
        return false;
      }
    }, 'must be a PostgreSQL URL like postgresql://user:password@host:5432/database'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Named (prepared) statements on the hot paths; false behind a pooler in transaction mode that does not track them */
  DATABASE_PREPARED_STATEMENTS: bool().default(true),
  REDIS_URL: redisUrl().default('redis://127.0.0.1:6379/0'),
  OPS_PORT: z.coerce.number().int().min(0).max(65535),
  /** Bind address of the ops port (/healthz, /readyz, /metrics); loopback unless set */
  OPS_HOST: bindHost(),
  /**
   * How long a stop (SIGTERM) may take before the process exits 1 anyway, naming the step it
   * waited on: shorter than the orchestrator's grace period, so the process says why, not SIGKILL.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
};

export const port = () => z.coerce.number().int().min(0).max(65535);

export const positiveInt = () => z.coerce.number().int().positive();

/** The settings every service process reads: environment, logging, the database, the stop's deadline. */
export const serviceEnv = {
  NODE_ENV: commonEnv.NODE_ENV,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  DATABASE_URL: commonEnv.DATABASE_URL,
  DATABASE_POOL_SIZE: commonEnv.DATABASE_POOL_SIZE,
  DATABASE_PREPARED_STATEMENTS: commonEnv.DATABASE_PREPARED_STATEMENTS,
  SHUTDOWN_TIMEOUT_MS: commonEnv.SHUTDOWN_TIMEOUT_MS,
};

/**
 * Webhook targets on loopback (127.0.0.0/8, ::1) are allowed only where this is true: tests and
 * local runs, never NODE_ENV=production. Private, link-local and metadata addresses never are.
 */
export const webhookEnv = {
  WEBHOOK_ALLOW_LOOPBACK: bool().default(false),
};

export function refuseLoopbackInProduction(
  env: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK: boolean },
  ctx: z.RefinementCtx,
): void {
  if (env.NODE_ENV === 'production' && env.WEBHOOK_ALLOW_LOOPBACK) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_LOOPBACK'],
      message: 'must not be true when NODE_ENV=production',
    });
  }
}
