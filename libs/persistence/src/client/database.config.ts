import { bool, configSection, postgresUrl } from '@pay/platform';
import { z } from 'zod';

/** The database every service process works on. */
export const databaseEnvShape = configSection('database', {
  DATABASE_URL: postgresUrl().meta({
    description:
      'PostgreSQL URL. Each service adds `application_name=<service>` (`gateway`, `ledger`, `payout`, `workers`; `admin` for the CLI) unless the URL sets one, so `pg_stat_activity` tells whose each connection is; its LISTEN connection has `:listen` after the name (`ledger:listen`)',
    example: 'postgresql://postgres@127.0.0.1:5432/payments',
  }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10).meta({
    description:
      'Connections per process (each service has a Prisma pool and a plain pg pool of this size, and one LISTEN connection, on every channel the service needs)',
  }),
  DATABASE_PREPARED_STATEMENTS: bool().default(true).meta({
    description:
      'Named (prepared) statements on the hot paths; false behind a pooler in transaction mode that does not track them',
  }),
});

export interface DatabaseConfig {
  /** DATABASE_URL naming the service's connections (withApplicationName) */
  url: string;
  poolSize: number;
  preparedStatements: boolean;
}

/** The database section of `service`'s config: its connections carry its name (application_name). */
export function databaseSection(env: z.output<z.ZodObject<typeof databaseEnvShape>>, service: string): DatabaseConfig {
  return {
    url: withApplicationName(env.DATABASE_URL, service),
    poolSize: env.DATABASE_POOL_SIZE,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  };
}

/**
 * `databaseUrl` with `application_name` set to `name` (unless the URL sets one already), so
 * `pg_stat_activity`, `pg_stat_statements` and a server log with `%a` tell whose each
 * connection is. Every connection made from the URL carries it: both pools, and each LISTEN
 * connection with `:listen` after it (PgListener).
 */
export function withApplicationName(databaseUrl: string, name: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl; // not a URL this can name (the connection reports what is wrong with it)
  }
  if (!url.searchParams.has('application_name')) url.searchParams.set('application_name', name);
  return url.toString();
}
