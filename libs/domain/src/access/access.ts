/**
 * Who may do what (issue 45 part 1, docs/access.md): the scopes of a merchant API token and the
 * roles of a merchant's dashboard users. One table, read by the gateway's token guard (a route
 * declares the scope it needs), by the dashboard's role guard and by the dashboard UI (what a
 * role is not allowed is hidden). Stable names: other code imports them; never rename one.
 */

/** What a merchant API token may be allowed to do; a token holds a subset (new and existing tokens: all). */
export const API_SCOPES = [
  'balance:read',
  'payins:read',
  'payins:write',
  'payouts:read',
  'payouts:write',
  'payouts:approve',
  'refunds:write',
  'reports:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** What only the dashboard does (no API token has these). */
export const DASHBOARD_PERMISSIONS = [
  /** Issue and revoke API tokens. */
  'tokens:manage',
  /** The callback URL, its secret, resending callbacks. */
  'webhooks:manage',
  /** The merchant's settings: IP allowlist and the like. */
  'settings:manage',
] as const;
export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];

/** Anything a role may be allowed: an API scope (the same act in the dashboard) or a dashboard-only permission. */
export type Permission = ApiScope | DashboardPermission;
export const PERMISSIONS: readonly Permission[] = [...API_SCOPES, ...DASHBOARD_PERMISSIONS];

/** A merchant's dashboard user has exactly one; every merchant keeps at least one owner. */
export const MERCHANT_ROLES = ['owner', 'developer', 'finance', 'viewer'] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];

/** The reads every role has. */
const READS: readonly Permission[] = ['balance:read', 'payins:read', 'payouts:read'];

/**
 * The role table. owner: everything; developer: tokens, webhooks and the reads; finance:
 * reports, payout approvals and the reads; viewer: the reads.
 */
export const ROLE_PERMISSIONS: Readonly<Record<MerchantRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  developer: [...READS, 'tokens:manage', 'webhooks:manage'],
  finance: [...READS, 'reports:read', 'payouts:approve'],
  viewer: READS,
};

export function isApiScope(value: unknown): value is ApiScope {
  return typeof value === 'string' && (API_SCOPES as readonly string[]).includes(value);
}

export function isMerchantRole(value: unknown): value is MerchantRole {
  return typeof value === 'string' && (MERCHANT_ROLES as readonly string[]).includes(value);
}

/** Whether a merchant user of this role may do this. */
export function roleAllows(role: MerchantRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.includes(permission) ?? false;
}

/** Whether a token with these scopes may call a route needing `scope`. */
export function scopesAllow(scopes: readonly string[], scope: ApiScope): boolean {
  return scopes.includes(scope);
}

/**
 * Scopes as a token is issued with them: each known, no repeats, in API_SCOPES' order; none given
 * (undefined) is full access. An empty list or an unknown scope is refused (returns the bad value).
 */
export function normaliseScopes(scopes: readonly string[] | undefined): { scopes: ApiScope[] } | { invalid: string } {
  if (scopes === undefined) return { scopes: [...API_SCOPES] };
  const unknown = scopes.find((s) => !isApiScope(s));
  if (unknown !== undefined) return { invalid: unknown };
  if (scopes.length === 0) return { invalid: '' };
  return { scopes: API_SCOPES.filter((s) => scopes.includes(s)) };
}
