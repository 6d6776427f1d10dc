/** Injection tokens of the ledger's non-class providers. */
export const LOGGER = Symbol('LOGGER');
