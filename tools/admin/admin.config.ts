import { DEFAULT_CONSOLE_PUBLIC_URL, DEFAULT_DASHBOARD_PUBLIC_URL } from '@pay/backoffice';
import { acquirerEnvShape, acquirerSection, snapEnvShape, snapSection } from '@pay/bank-rail';
import {
  queueEnvShape,
  queueSection,
  redisEnvShape,
  redisSection,
  storageEnvShape,
  storageSection,
} from '@pay/platform';
import { z } from 'zod';

/**
 * Every setting of the admin CLI (docs/operations/configuration.md), read once when it starts.
 * Looser than the services' rules on purpose: the CLI runs without a database for --help, and
 * a command that needs one says so (exit code 2).
 */
export const adminConfigSchema = z
  .object({
    DATABASE_URL: z.string().optional().meta({
      description:
        'PostgreSQL URL of the database the commands work on; their connections are named `admin` (application_name) unless the URL names them',
      requiredWhen: 'by every command that reads or writes the database (else "DATABASE_URL is not set", exit code 2)',
      example: 'postgresql://postgres@127.0.0.1:5432/payments',
    }),
    WEBHOOK_ALLOW_LOOPBACK: z
      .string()
      .optional()
      .transform((v) => v === 'true')
      .meta({
        description: '`true`: `merchant set-callback-url` accepts a callback URL on loopback (local runs, tests)',
        typeText: '`true`, else false',
        defaultText: '`false`',
      }),
    DASHBOARD_PUBLIC_URL: z
      .string()
      .default(DEFAULT_DASHBOARD_PUBLIC_URL)
      .meta({ description: "The merchant dashboard's address, in the set-password links of merchant users" }),
    CONSOLE_PUBLIC_URL: z
      .string()
      .default(DEFAULT_CONSOLE_PUBLIC_URL)
      .meta({ description: "The operator console's address, in operators' set-password links" }),
    // `books export` queues the workers' build and signs the download as the gateway does: the same Redis, queue prefix and store.
    ...redisEnvShape,
    ...queueEnvShape,
    ...storageEnvShape,
    // `recon run --snap` fetches the acquirer's report and the bank's statement as the services reach them.
    ...snapEnvShape,
    ...acquirerEnvShape,
  })
  .transform((env) => ({
    database: { url: env.DATABASE_URL },
    // No WEBHOOK_ALLOW_PRIVATE_HOSTS: the CLI reads no NODE_ENV to refuse it in production, and the
    // test stacks set callback URLs through the API, which has it.
    webhooks: { allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK, allowPrivateHosts: [] },
    links: { dashboard: env.DASHBOARD_PUBLIC_URL, console: env.CONSOLE_PUBLIC_URL },
    redis: redisSection(env),
    queues: queueSection(env),
    storage: storageSection(env),
    /** The bank over SNAP whose statement (14) `recon run --snap` reads; null without SNAP_BASE_URL, SNAP_CLIENT_ID, SNAP_PRIVATE_KEY_FILE */
    snap: snapSection(env),
    /** The acquirer whose settlement report `recon run --snap` reads (QRIS_ACQUIRER=snap) */
    acquirer: acquirerSection(env),
  }));

export type AdminConfig = z.output<typeof adminConfigSchema>;
