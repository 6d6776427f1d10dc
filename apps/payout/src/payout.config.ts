import { busEnvShape, refineBusEnv } from '@pay/bus';
import { commonEnv, port } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the payout service; validated once at start-up (see .env.example). */
export const payoutConfigSchema = z
  .object({
    NODE_ENV: commonEnv.NODE_ENV,
    LOG_LEVEL: commonEnv.LOG_LEVEL,
    DATABASE_URL: commonEnv.DATABASE_URL,
    DATABASE_POOL_SIZE: commonEnv.DATABASE_POOL_SIZE,
    REDIS_URL: commonEnv.REDIS_URL,
    OPS_PORT: port().default(9102),
    ...busEnvShape,
  })
  .superRefine(refineBusEnv);

export type PayoutConfig = z.infer<typeof payoutConfigSchema>;
