import { busEnvShape, refineBusEnv } from '@pay/bus';
import { commonEnv, serviceEnv, port, positiveInt } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the ledger service; validated once at start-up (see .env.example). */
export const ledgerConfigSchema = z
  .object({
    ...serviceEnv,
    REDIS_URL: commonEnv.REDIS_URL,
    OPS_PORT: port().default(9101),
    OPS_HOST: commonEnv.OPS_HOST,
    /** The relay's safety-net poll; commits that write outbox rows wake it at once (LISTEN/NOTIFY) */
    OUTBOX_POLL_MS: positiveInt().default(5_000),
    OUTBOX_BATCH_SIZE: positiveInt().max(1000).default(200),
    /** After a round that relayed a trickle (rows, no full batch), a wake-up waits this long so a burst goes out as one batch; 0 = off */
    OUTBOX_LINGER_MS: z.coerce.number().int().min(0).max(50).default(3),
    ...busEnvShape,
  })
  .superRefine(refineBusEnv);

export type LedgerConfig = z.infer<typeof ledgerConfigSchema>;
