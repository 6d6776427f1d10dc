import { z } from 'zod';
import { isSentinelUrl, sentinelOptions } from '../queues/redis-url';

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
const POSTGRES_URL_MESSAGE = 'must be a PostgreSQL URL like postgresql://user:password@host:5432/database';

export const bool = () =>
  z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .meta({ typeText: 'boolean (`true`, `false`, `1`, `0`)' });

/** A PostgreSQL server's URL, with a host and a database. */
export const postgresUrl = () =>
  z
    .string()
    .regex(POSTGRES_URL, POSTGRES_URL_MESSAGE)
    .refine((v) => {
      try {
        return new URL(v).hostname.length > 0;
      } catch {
        return false;
      }
    }, POSTGRES_URL_MESSAGE)
    .meta({ typeText: 'PostgreSQL URL' });

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
    })
    .meta({ typeText: 'Redis URL (`redis://`, `rediss://`, `redis+sentinel://`)' });

export const port = () => z.coerce.number().int().min(0).max(65535);

export const positiveInt = () => z.coerce.number().int().positive();
