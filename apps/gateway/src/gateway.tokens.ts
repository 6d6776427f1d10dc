/** Injection tokens of the gateway's non-class providers. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const BANK_RAIL = Symbol('BANK_RAIL');
export const PRISMA = Symbol('PRISMA');
export const OBJECT_STORE = Symbol('OBJECT_STORE');
export const RECON_PRODUCER = Symbol('RECON_PRODUCER');
export const LOGGER = Symbol('LOGGER');
