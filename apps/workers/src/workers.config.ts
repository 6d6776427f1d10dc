import { busEnvShape, refineBusEnv } from '@pay/bus';
import {
  commonEnv,
  port,
  positiveInt,
  refuseLoopbackInProduction,
  serviceEnv,
  storageEnvShape,
  webhookEnv,
} from '@pay/platform';
import { z } from 'zod';

/** Every setting of the workers service; validated once at start-up (see .env.example). */
export const workersConfigSchema = z
  .object({
    ...serviceEnv,
    REDIS_URL: commonEnv.REDIS_URL,
    /** BullMQ key prefix, so environments sharing one Redis never see each other's jobs */
    QUEUE_PREFIX: z.string().min(1).default('bull'),
    OPS_PORT: port().default(9103),
    OPS_HOST: commonEnv.OPS_HOST,
    /** A webhook attempt gives up after this long (connect + response) */
    WEBHOOK_TIMEOUT_MS: positiveInt().max(60_000).default(10_000),
    /** Response bytes read per attempt; the first 1 KiB is stored */
    WEBHOOK_MAX_RESPONSE_BYTES: positiveInt().max(1_048_576).default(4096),
    /** Parallel webhook attempts per workers process */
    WEBHOOK_CONCURRENCY: positiveInt().max(200).default(20),
    /**
     * The dispatcher's safety-net round (a lost notification, attempts abandoned by a worker that
     * died); new deliveries and resends wake it at commit, scheduled retries are claimed when due
     */
    WEBHOOK_DISPATCH_INTERVAL_MS: positiveInt().max(60_000).default(5_000),
    /** Added to WEBHOOK_TIMEOUT_MS: after that an attempt whose worker died is taken over */
    WEBHOOK_LEASE_GRACE_MS: positiveInt().max(600_000).default(30_000),
    /** How often the settlement schedule is checked (each merchant settles T+n at its hour, Asia/Jakarta) */
    SETTLEMENT_SCAN_INTERVAL_MS: positiveInt().max(3_600_000).default(60_000),
    /** How often pending QRIS codes past their expiry are moved to `expired` (and their payin.expired callbacks written) */
    PAYIN_EXPIRY_SCAN_INTERVAL_MS: positiveInt().max(3_600_000).default(30_000),
    /** A recon export attempt whose CSV has not moved for this long is abandoned and retried */
    RECON_STALL_MS: positiveInt().min(1000).max(600_000).default(30_000),
    ...webhookEnv,
    ...storageEnvShape,
    ...busEnvShape,
  })
  .superRefine((c, ctx) => {
    refineBusEnv(c, ctx);
    refuseLoopbackInProduction(c, ctx);
  });

export type WorkersConfig = z.infer<typeof workersConfigSchema>;
