import { hostname, userInfo } from 'node:os';
import type { MerchantView, NewAuditEntry } from '@pay/persistence';

/**
 * Who is acting, for the audit log of a change written in the change's own transaction: each face
 * passes its actor (the console its operator, the ops API and the CLI their actor) and the use
 * case names the action and its target.
 */
export type AuditAs = (action: string, target: string) => NewAuditEntry;

/** The actor of a change made through the ops API (the admin token: no dashboard user). */
export const OPS_API_ACTOR = 'ops-api';

/**
 * Who acts, as a rule between two people compares them (an adjustment's requester and approver):
 * the console's operator `operator:<dashboard user id>`, else the entry's actor (`ops-api`, the
 * admin token, one identity whoever holds it; `cli:<os user>@<host>`).
 */
export function actorOf(entry: NewAuditEntry): string {
  return entry.operatorUserId !== null ? `operator:${entry.operatorUserId}` : (entry.actor ?? 'unknown');
}

/** The AuditAs of the admin CLI: its actor, one logId per run. */
export function cliAuditAs(logId: string): AuditAs {
  return (action, target) => ({
    operatorUserId: null,
    actor: cliActor(),
    merchantId: null,
    action,
    target,
    details: {},
    logId,
  });
}

/** The actor of a change made with the admin CLI: `cli:<os user>@<host>`. */
export function cliActor(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for the uid (a container's arbitrary user): the host still says where.
  }
  return `cli:${user}@${hostname()}`;
}

/** What changed, field by field: `{ payinFeePctMilli: { from: 700, to: 500 } }`. */
export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** A JSON-safe value: bigint (minor units) as a number, arrays and objects compared by content. */
function jsonValue(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v;
}

/** The fields whose values differ between two states of the same thing (only keys of `before` or `after`). */
export function changesBetween(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = jsonValue(before[key]);
    const to = jsonValue(after[key]);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from: from ?? null, to: to ?? null };
  }
  return changes;
}

/**
 * A merchant's settings as the audit log compares them (MerchantView: fees in minor units, the
 * allowlist, rate limits, callback URL, QRIS identity, schedule, active). The webhook secret is not
 * in it: a rotation is recorded as the action, never with a value.
 */
export function merchantAuditState(m: MerchantView): Record<string, unknown> {
  // Named one by one: a merchant row read whole also holds the webhook secrets and timestamps.
  return Object.fromEntries(AUDITED_MERCHANT_FIELDS.map((k) => [k, m[k]]));
}

const AUDITED_MERCHANT_FIELDS = [
  'name',
  'isActive',
  'payinFeePctMilli',
  'payinFeeFixed',
  'payoutFeeFlat',
  'ipAllowlistEnabled',
  'ipAllowlist',
  'nmid',
  'mcc',
  'merchantCriteria',
  'city',
  'postalCode',
  'settlementDelayDays',
  'settlementHour',
  'rateLimitRead',
  'rateLimitWrite',
  'rateLimitExport',
  'payinCallbackUrl',
] as const satisfies readonly Exclude<keyof MerchantView, 'id'>[];
