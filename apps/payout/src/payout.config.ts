import { railEnvShape } from '@pay/bank-rail';
import { busEnvShape, refineBusEnv } from '@pay/bus';
import { commonEnv, port, positiveInt, serviceEnv } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the payout service; validated once at start-up (see .env.example). */
export const payoutConfigSchema = z
  .object({
    ...serviceEnv,
    REDIS_URL: commonEnv.REDIS_URL,
    OPS_PORT: port().default(9102),
    OPS_HOST: commonEnv.OPS_HOST,
    /**
     * The safety-net round behind the ledger's NOTIFY (a lost notification, a lease that lapsed
     * after a crash); rechecks the rail asked for are run when due, not at this interval
     */
    PAYOUT_POLL_INTERVAL_MS: positiveInt().max(60_000).default(5_000),
    /** Disbursements claimed, submitted and completed together in one round */
    PAYOUT_BATCH_SIZE: positiveInt().max(500).default(16),
    /** How long a worker holds a disbursement it is working on; after a crash it is picked up once this lapses */
    PAYOUT_LEASE_MS: positiveInt().max(600_000).default(30_000),
    /** Wait before asking the rail again after it timed out */
    PAYOUT_TIMEOUT_RETRY_MS: positiveInt().max(600_000).default(2_000),
    /** The relay's safety-net poll; commits that write outbox rows wake it at once (LISTEN/NOTIFY) */
    OUTBOX_POLL_MS: positiveInt().default(5_000),
    OUTBOX_BATCH_SIZE: positiveInt().max(1000).default(200),
    /** After a round that relayed a trickle (rows, no full batch), a wake-up waits this long so a burst goes out as one batch; 0 = off */
    OUTBOX_LINGER_MS: z.coerce.number().int().min(0).max(50).default(3),
    ...railEnvShape,
    ...busEnvShape,
  })
  .superRefine(refineBusEnv);

export type PayoutConfig = z.infer<typeof payoutConfigSchema>;
