import type { Pool } from 'pg';
import { type SqlClient, sqlClient } from '../client/sql';
import { hashToken } from './token';

export interface AuthenticatedMerchant {
  id: number;
  name: string;
  isActive: boolean;
  ipAllowlistEnabled: boolean;
  ipAllowlist: string[];
  /** Flat disbursement fee, minor units */
  payoutFeeFlat: bigint;
  tokenId: string;
  /** What the token may do (@pay/domain API_SCOPES; docs/access.md); fixed when it is issued */
  tokenScopes: string[];
  /** When the merchant was created: no recon export of an earlier day */
  createdAt: Date;
  /** The merchant's own rate limits per endpoint class; null: the gateway's default */
  rateLimits: MerchantRateLimits;
}

/** Requests per second (read, write) and new recon exports per minute (export); null: the default. */
export interface MerchantRateLimits {
  read: number | null;
  write: number | null;
  export: number | null;
}

/** The merchant's balance projection, as BalanceRepository.get reads it (minor units). */
export interface MerchantBalance {
  available: bigint;
  pending: bigint;
}

export type TokenLookup =
  { found: true; merchant: AuthenticatedMerchant; balance?: MerchantBalance } | { found: false };

/**
 * The token and its merchant, and a coarse last-used stamp (at most once a minute, so a busy
 * token does not write on every request). $1 is the token's SHA-256.
 */
const TOKEN_AND_MERCHANT = `
  WITH t AS (
    SELECT a.id AS token_id, a.revoked_at IS NOT NULL AS revoked, a.last_used_at, a.scopes AS token_scopes, m.id, m.name, m.is_active,
           m.ip_allowlist_enabled, m.ip_allowlist, m.payout_fee_flat, m.created_at, m.rate_limit_read, m.rate_limit_write, m.rate_limit_export
      FROM api_tokens a JOIN merchants m ON m.id = a.merchant_id
     WHERE a.token_hash = $1
  ), touched AS (
    UPDATE api_tokens SET last_used_at = now()
     WHERE id = (SELECT token_id FROM t WHERE NOT revoked)
       AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
  )
  SELECT t.token_id, t.revoked, t.token_scopes, t.id, t.name, t.is_active, t.ip_allowlist_enabled, t.ip_allowlist, t.payout_fee_flat, t.created_at,
         t.rate_limit_read, t.rate_limit_write, t.rate_limit_export`;

const BY_TOKEN = `${TOKEN_AND_MERCHANT} FROM t`;

/** The same, and the merchant's balance in the same statement (one snapshot): balance reads cost one round trip, not two. */
const BY_TOKEN_WITH_BALANCE = `${TOKEN_AND_MERCHANT}, b.available, b.pending FROM t LEFT JOIN balances b ON b.merchant_id = t.id`;

/**
 * The balance, if the token still authenticates (not revoked, its merchant active), read in one
 * snapshot with that check, and the merchant's IP allowlist (its list only when it is on): what a
 * balance GET needs once its token's merchant is known.
 */
const BALANCE_IF_TOKEN_VALID = `
  SELECT b.available, b.pending, m.ip_allowlist_enabled, CASE WHEN m.ip_allowlist_enabled THEN m.ip_allowlist END AS ip_allowlist
    FROM api_tokens a JOIN merchants m ON m.id = a.merchant_id LEFT JOIN balances b ON b.merchant_id = m.id
   WHERE a.token_hash = $1 AND a.revoked_at IS NULL AND m.is_active`;

/** What balanceIfTokenValid reads: the balance and the merchant's allowlist, live. */
export interface BalanceAccess {
  balance: MerchantBalance;
  ipAllowlistEnabled: boolean;
  ipAllowlist: string[];
}

/** The statements as the gateway sends them, for tools that look at their plans (tools/bench/hot-queries.ts). */
export const TOKEN_STATEMENTS = {
  byToken: BY_TOKEN,
  byTokenWithBalance: BY_TOKEN_WITH_BALANCE,
  balanceIfTokenValid: BALANCE_IF_TOKEN_VALID,
} as const;

interface TokenRow {
  token_id: string;
  revoked: boolean;
  token_scopes: string[];
  id: number;
  name: string;
  is_active: boolean;
  ip_allowlist_enabled: boolean;
  ip_allowlist: string[];
  payout_fee_flat: bigint;
  created_at: Date;
  rate_limit_read: number | null;
  rate_limit_write: number | null;
  rate_limit_export: number | null;
  available?: bigint | null;
  pending?: bigint | null;
}

/** Sent when a token is revoked or deleted, or a merchant changes (migration 20261128020000): caches of tokens forget. */
export const MERCHANT_AUTH_CHANGED_CHANNEL = 'merchant_auth_changed';

/** Reads tokens live from Postgres, so a revocation or deactivation takes effect on the next request. */
export class MerchantAuthRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * One round trip on the hot path of every request: the token and its merchant (and, with
   * `withBalance`, the merchant's balance: the balance GET then needs no second statement).
   * Plain pg, prepared: this runs on every API call (docs/decisions/0010, 0011).
   */
  async findByToken(token: string, opts: { withBalance?: boolean } = {}): Promise<TokenLookup> {
    return this.findByHash(hashToken(token), opts);
  }

  /** The same, by the token's SHA-256 (hex), for a caller that has it already. */
  async findByHash(tokenHash: string, opts: { withBalance?: boolean } = {}): Promise<TokenLookup> {
    const rows = await this.db.query<TokenRow>({
      text: opts.withBalance ? BY_TOKEN_WITH_BALANCE : BY_TOKEN,
      values: [tokenHash],
    });
    const row = rows[0];
    if (!row || row.revoked) return { found: false };
    const merchant: AuthenticatedMerchant = {
      id: row.id,
      name: row.name,
      isActive: row.is_active,
      ipAllowlistEnabled: row.ip_allowlist_enabled,
      ipAllowlist: row.ip_allowlist ?? [],
      payoutFeeFlat: row.payout_fee_flat,
      tokenId: row.token_id,
      tokenScopes: row.token_scopes,
      createdAt: row.created_at,
      rateLimits: { read: row.rate_limit_read, write: row.rate_limit_write, export: row.rate_limit_export },
    };
    if (!opts.withBalance) return { found: true, merchant };
    return { found: true, merchant, balance: balanceOf(row) };
  }

  /**
   * The merchant's balance and IP allowlist if the token (its SHA-256) still authenticates, else
   * undefined: for a caller that knows the token's merchant from a moment ago (MerchantAuthCache)
   * and must not show a balance to a token revoked since, to a merchant deactivated since, nor to
   * an address the allowlist has refused since. Four narrow columns instead of the lookup's
   * fourteen, and no last-used stamp (the next full lookup stamps it).
   */
  async balanceIfTokenValid(tokenHash: string): Promise<BalanceAccess | undefined> {
    const rows = await this.db.query<Pick<TokenRow, 'available' | 'pending' | 'ip_allowlist_enabled' | 'ip_allowlist'>>(
      { text: BALANCE_IF_TOKEN_VALID, values: [tokenHash] },
    );
    const row = rows[0];
    return (
      row && {
        balance: balanceOf(row),
        ipAllowlistEnabled: row.ip_allowlist_enabled,
        ipAllowlist: row.ip_allowlist ?? [],
      }
    );
  }
}

/** No projection row yet: a merchant nothing has been booked for (as BalanceRepository.get). */
function balanceOf(row: Pick<TokenRow, 'available' | 'pending'>): MerchantBalance {
  return { available: row.available ?? 0n, pending: row.pending ?? 0n };
}
