import { configSection } from '@pay/platform';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { BankRail } from './bank-rail';
import { SandboxBankRail } from './sandbox/sandbox-bank-rail';

/** Rail settings, shared by the gateway (account lookups) and the payout service (transfers). */
export const railEnvShape = configSection('rail', {
  RAIL_PROVIDER: z
    .enum(['sandbox'])
    .default('sandbox')
    .meta({ description: 'Which bank rail adapter to use. Only the sandbox simulator ships today' }),
  RAIL_SANDBOX_LATENCY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(100)
    .meta({ description: 'Simulated network latency per rail call' }),
  RAIL_SANDBOX_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(5_000)
    .meta({ description: 'How long the delayed sandbox outcomes take' }),
});

export interface RailConfig {
  provider: 'sandbox';
  sandbox: { latencyMs: number; delayMs: number };
}

export const railSection = (env: z.output<z.ZodObject<typeof railEnvShape>>): RailConfig => ({
  provider: env.RAIL_PROVIDER,
  sandbox: { latencyMs: env.RAIL_SANDBOX_LATENCY_MS, delayMs: env.RAIL_SANDBOX_DELAY_MS },
});

export function createBankRail(rail: RailConfig, pool: Pool): BankRail {
  switch (rail.provider) {
    case 'sandbox':
      return new SandboxBankRail(pool, rail.sandbox);
  }
}
