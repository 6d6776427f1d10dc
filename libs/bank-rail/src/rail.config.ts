import type { Pool } from 'pg';
import { z } from 'zod';
import type { BankRail } from './bank-rail';
import { SandboxBankRail } from './sandbox/sandbox-bank-rail';

/** Rail settings, shared by the gateway (account lookups) and the payout service (transfers). */
export const railEnvShape = {
  /** Which bank rail adapter to use. Only the sandbox simulator ships today. */
  RAIL_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  RAIL_SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  RAIL_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
};

type RailEnv = z.output<z.ZodObject<typeof railEnvShape>>;

export function createBankRail(env: RailEnv, pool: Pool): BankRail {
  switch (env.RAIL_PROVIDER) {
    case 'sandbox':
      return new SandboxBankRail(pool, { latencyMs: env.RAIL_SANDBOX_LATENCY_MS, delayMs: env.RAIL_SANDBOX_DELAY_MS });
  }
}
