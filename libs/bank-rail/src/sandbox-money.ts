import type { BankRail } from './bank-rail';

/** Why a disbursement was not sent (its failure reason, in the merchant's callback and inquiry). */
export const SANDBOX_MONEY_REFUSAL =
  'Sandbox money is never paid out over a live bank rail: this merchant has received sandbox pay-ins';

/**
 * Whether sending a merchant's disbursement over this rail could let sandbox money out: the rail
 * is live and the merchant has ever received sandbox money (`balances.sandbox_received`). Ever
 * received, not a remaining portion: money is fungible (docs/decisions/0047-sandbox-money.md).
 */
export function sendsSandboxMoney(rail: Pick<BankRail, 'live'>, sandboxReceived: bigint): boolean {
  return rail.live && sandboxReceived > 0n;
}
