import { busConfigFromEnv, busEnvShape, outboxEnvShape, outboxSection, refineBusEnv } from '@pay/bus';
import { databaseEnvShape, databaseSection } from '@pay/persistence';
import { opsEnvShape, opsSection, redisEnvShape, serviceEnvShape, serviceSection } from '@pay/platform';
import { z } from 'zod';

/**
 * Every setting of the ledger service (docs/operations/configuration.md), validated once at
 * start-up into the typed config the service reads.
 */
export const ledgerConfigSchema = z
  .object({
    ...serviceEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...opsEnvShape(9101),
    ...outboxEnvShape,
    ...busEnvShape,
  })
  .superRefine(refineBusEnv)
  .transform((env) => ({
    ...serviceSection(env),
    database: databaseSection(env, 'ledger'),
    ops: opsSection(env),
    bus: busConfigFromEnv(env, 'ledger'),
    outbox: outboxSection(env),
  }));

export type LedgerConfig = z.output<typeof ledgerConfigSchema>;
