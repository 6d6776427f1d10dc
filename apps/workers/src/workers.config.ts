import { commonEnv, port, serviceEnv } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the workers service; validated once at start-up (see .env.example). */
export const workersConfigSchema = z.object({
  ...serviceEnv,
  REDIS_URL: commonEnv.REDIS_URL,
  /** BullMQ key prefix, so environments sharing one Redis never see each other's jobs */
  QUEUE_PREFIX: z.string().min(1).default('bull'),
  OPS_PORT: port().default(9103),
});

export type WorkersConfig = z.infer<typeof workersConfigSchema>;
