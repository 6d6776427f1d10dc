import { bool, configSection } from '@pay/platform';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { BankRail } from './bank-rail';
import { SandboxBankRail } from './sandbox/sandbox-bank-rail';
import { SnapBankRail, type SnapRailHooks } from './snap/snap-bank-rail';
import { readSnapCredentials, refineSnapEnv, snapEnvShape, type SnapRailConfig, snapSection } from './snap/snap.config';

/**
 * Every rail provider, and whether it moves real money. The in-process sandbox simulator never
 * does. A bank over SNAP does, unless RAIL_SIMULATOR says its address is a simulator's (the SNAP
 * provider simulator): then the rail is not live.
 */
const RAIL_PROVIDERS = {
  sandbox: { movesRealMoney: false },
  snap: { movesRealMoney: true },
} as const satisfies Record<string, { movesRealMoney: boolean }>;

export type RailProvider = keyof typeof RAIL_PROVIDERS;

const railOwnEnvShape = configSection('rail', {
  RAIL_PROVIDER: z
    .enum(Object.keys(RAIL_PROVIDERS) as [RailProvider, ...RailProvider[]])
    .default('sandbox')
    .meta({
      description:
        'Which bank rail pays out: `snap`, a bank over SNAP (the SNAP_* settings; the SNAP provider simulator locally), or `sandbox`, an in-process simulator that shares our database',
    }),
  RAIL_SIMULATOR: bool().default(false).meta({
    description:
      "The rail provider's address is a simulator (the SNAP provider simulator), not a bank: the rail is then not live, so the gateway's sandbox payer may run beside it and sandbox money may be paid out over it. Never true against a bank. The in-process sandbox rail is never live, whatever this says",
    production: 'refuses `true`',
  }),
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

/**
 * Rail settings, shared by the gateway (account lookups) and the payout service (transfers): the
 * rail's own, and the SNAP provider's (which the workers read too, for the QRIS acquirer).
 */
export const railEnvShape = { ...railOwnEnvShape, ...snapEnvShape };

type RailEnv = z.output<z.ZodObject<typeof railEnvShape>>;

export interface RailConfig {
  provider: RailProvider;
  /**
   * The rail moves real money: its provider speaks to a bank, and RAIL_SIMULATOR does not say
   * it is a simulator. The gateway's sandbox payer is refused beside a live rail, and the payout
   * service sends no sandbox money over one.
   */
  live: boolean;
  sandbox: { latencyMs: number; delayMs: number };
  /** The SNAP provider, when RAIL_PROVIDER=snap */
  snap: SnapRailConfig | null;
}

export const railSection = (env: RailEnv): RailConfig => ({
  provider: env.RAIL_PROVIDER,
  live: RAIL_PROVIDERS[env.RAIL_PROVIDER].movesRealMoney && !env.RAIL_SIMULATOR,
  sandbox: { latencyMs: env.RAIL_SANDBOX_LATENCY_MS, delayMs: env.RAIL_SANDBOX_DELAY_MS },
  snap: env.RAIL_PROVIDER === 'snap' ? snapSection(env) : null,
});

/** Production's rails are banks: the simulator marker there would let sandbox money out over a real one. */
export function refineRailEnv(env: RailEnv & { NODE_ENV: string }, ctx: z.RefinementCtx): void {
  refineSnapEnv(env, ctx);
  if (env.NODE_ENV === 'production' && env.RAIL_SIMULATOR)
    ctx.addIssue({
      code: 'custom',
      path: ['RAIL_SIMULATOR'],
      message:
        "must not be true when NODE_ENV=production: production's rail is a bank's, and sandbox money must never be paid out over it",
    });
}

export function createBankRail(rail: RailConfig, pool: Pool, hooks: SnapRailHooks = {}): BankRail {
  switch (rail.provider) {
    case 'sandbox':
      return new SandboxBankRail(pool, rail.sandbox);
    case 'snap': {
      // refineRailEnv checked both at start-up: the section is there and its files hold what they say.
      if (!rail.snap) throw new Error('RAIL_PROVIDER=snap needs the SNAP_* settings');
      return new SnapBankRail(pool, rail.snap, readSnapCredentials(rail.snap.files), rail.live, hooks);
    }
  }
}
