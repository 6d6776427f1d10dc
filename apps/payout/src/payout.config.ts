import { busEnvShape, refineBusEnv } from '@pay/bus';
import { commonEnv, serviceEnv, port } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the payout service; validated once at start-up (see .env.example). */
export const payoutConfigSchema = z
  .object({
    ...serviceEnv,
    REDIS_URL: commonEnv.REDIS_URL,
    OPS_PORT: port().default(9102),
    ...busEnvShape,
  })
  .superRefine(refineBusEnv);

export type PayoutConfig = z.infer<typeof payoutConfigSchema>;
