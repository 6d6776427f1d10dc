import { ExpiringMap } from '../../cache/expiring-map';

/** How long a successful authentication vouches for a token's merchant, for refusing early only. */
export const RECENT_TOKEN_TTL_MS = 10_000;
const MAX_TOKENS = 10_000;

/**
 * Which merchant a token belonged to when it last authenticated, for at most RECENT_TOKEN_TTL_MS.
 * Never used to serve a request (every served request looks its token up in PostgreSQL, so a
 * revocation is immediate): only to refuse one of a merchant that is over its rate limit before
 * the database is asked (registerLocalRefusal). Keyed by the token's SHA-256, as in the database,
 * so no token is kept in memory; only tokens that authenticated are remembered, so unknown
 * tokens cannot fill it.
 */
export class RecentTokens {
  private readonly merchants = new ExpiringMap<string, number>(MAX_TOKENS);

  /** `tokenHash`: the token's SHA-256 (tokenHashOf). Renewed only past half its TTL: a busy token is not written on every request. */
  remember(tokenHash: string, merchantId: number): void {
    const now = Date.now();
    if (
      this.merchants.get(tokenHash, now) === merchantId &&
      (this.merchants.expiresAt(tokenHash) ?? 0) - now > RECENT_TOKEN_TTL_MS / 2
    )
      return;
    this.merchants.set(tokenHash, merchantId, now + RECENT_TOKEN_TTL_MS, now);
  }

  merchantOf(tokenHash: string): number | undefined {
    return this.merchants.get(tokenHash);
  }
}
