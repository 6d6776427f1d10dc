import { railEnvShape, railSection, refineRailEnv } from '@pay/bank-rail';
import { busConfigFromEnv, busEnvShape, outboxEnvShape, outboxSection, refineBusEnv } from '@pay/bus';
import { databaseEnvShape, databaseSection } from '@pay/persistence';
import { opsEnvShape, opsSection, positiveInt, redisEnvShape, serviceEnvShape, serviceSection } from '@pay/platform';
import { z } from 'zod';

/**
 * Every setting of the payout service (docs/operations/configuration.md), validated once at
 * start-up into the typed config the service reads.
 */
export const payoutConfigSchema = z
  .object({
    ...serviceEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...opsEnvShape(9102),
    PAYOUT_POLL_INTERVAL_MS: positiveInt().max(60_000).default(5_000).meta({
      description:
        "The safety-net round behind the ledger's NOTIFY (a lost notification, a lease that lapsed after a crash); rechecks the rail asked for are run when due, not at this interval",
    }),
    PAYOUT_BATCH_SIZE: positiveInt()
      .max(500)
      .default(16)
      .meta({ description: 'Disbursements claimed, submitted and completed together in one round' }),
    PAYOUT_LEASE_MS: positiveInt().max(600_000).default(30_000).meta({
      description:
        'How long a worker holds a disbursement it is working on; after a crash it is picked up once this lapses',
    }),
    PAYOUT_TIMEOUT_RETRY_MS: positiveInt()
      .max(600_000)
      .default(2_000)
      .meta({ description: 'Wait before asking the rail again after it timed out' }),
    ...outboxEnvShape,
    ...railEnvShape,
    ...busEnvShape,
  })
  .superRefine((env, ctx) => {
    refineBusEnv(env, ctx);
    refineRailEnv(env, ctx);
  })
  .transform((env) => ({
    ...serviceSection(env),
    database: databaseSection(env, 'payout'),
    ops: opsSection(env),
    bus: busConfigFromEnv(env, 'payout'),
    outbox: outboxSection(env),
    rail: railSection(env),
    payouts: {
      pollIntervalMs: env.PAYOUT_POLL_INTERVAL_MS,
      batchSize: env.PAYOUT_BATCH_SIZE,
      leaseMs: env.PAYOUT_LEASE_MS,
      timeoutRetryMs: env.PAYOUT_TIMEOUT_RETRY_MS,
    },
  }));

export type PayoutConfig = z.output<typeof payoutConfigSchema>;
