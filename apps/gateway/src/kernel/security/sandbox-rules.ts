import type { RailConfig } from '@pay/bank-rail';

/** Whether the sandbox payer is served: SANDBOX_MODE as set, else on everywhere but production. */
export const sandboxPayerOn = (env: { NODE_ENV: string; SANDBOX_MODE?: boolean }): boolean =>
  env.SANDBOX_MODE ?? env.NODE_ENV !== 'production';

/**
 * The sandbox payer marks pay-ins paid that nobody paid. Beside a live rail (a bank's), a gateway
 * outside production (a staging environment on a real bank) would let merchants mint money to pay
 * out, so the two are refused together (docs/decisions/0047-sandbox-money.md). The problem with
 * SANDBOX_MODE, or null.
 */
export function sandboxBesideLiveRail(
  env: { NODE_ENV: string; SANDBOX_MODE?: boolean },
  rail: Pick<RailConfig, 'provider' | 'live'>,
): string | null {
  if (!rail.live || !sandboxPayerOn(env)) return null;
  const byDefault = env.SANDBOX_MODE === undefined ? ' (it is on by default outside production)' : '';
  return (
    `must not be true beside a live rail (RAIL_PROVIDER=${rail.provider} without RAIL_SIMULATOR=true)${byDefault}: ` +
    "the sandbox payer's pay-ins would be paid out over a bank. Set SANDBOX_MODE=false, or RAIL_SIMULATOR=true if the provider is a simulator"
  );
}
