/** Injection tokens of the gateway's non-class providers: every one of the app, in this one file. */

/** The validated settings (GatewayConfig) */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
/** The bank rail adapter (account lookups) */
export const BANK_RAIL = Symbol('BANK_RAIL');
/** The QRIS acquirer over SNAP (SnapQrisAcquirer), or null with QRIS_ACQUIRER=self */
export const QRIS_ACQUIRER = Symbol('QRIS_ACQUIRER');
/** Prisma, for the admin and reporting paths */
export const PRISMA = Symbol('PRISMA');
/** The pg pool of the money path's SQL */
export const PG_POOL = Symbol('PG_POOL');
/** The fail-fast Redis connection (readiness, Bull Board) */
export const REDIS = Symbol('REDIS');
/** The process's one LISTEN connection */
export const PG_LISTENER = Symbol('PG_LISTENER');
export const OBJECT_STORE = Symbol('OBJECT_STORE');
export const RECON_PRODUCER = Symbol('RECON_PRODUCER');
export const LOGGER = Symbol('LOGGER');
/** What /readyz checks (ReadinessCheck[]) */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
/** The Prometheus registry /metrics serves */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');
/**
 * The time a merchant's due times are computed from (MerchantClock): real time, but a merchant's
 * sandbox clock in SANDBOX_MODE (POST /api/v1/sandbox/clock/advance)
 */
export const MERCHANT_CLOCK = Symbol('MERCHANT_CLOCK');
/** The time the dashboard's and console's auth runs on (a provider, so tests can move it) */
export const DASHBOARD_CLOCK = Symbol('DASHBOARD_CLOCK');
/**
 * Ops endpoints take `Authorization: Bearer <ADMIN_TOKEN>` (or a token of ADMIN_TOKEN_PREVIOUS
 * during a rotation); without ADMIN_TOKEN they do not exist (AdminSettings).
 */
export const ADMIN_SETTINGS = Symbol('ADMIN_SETTINGS');
