/** Injection tokens of the payout service's non-class providers. */
export const PAYOUT_WAKE = Symbol('PAYOUT_WAKE');
