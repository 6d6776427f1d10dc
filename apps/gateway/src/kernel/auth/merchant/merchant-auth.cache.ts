import { type AuthenticatedMerchant, MERCHANT_AUTH_CHANGED_CHANNEL, type PgListener } from '@pay/persistence';
import { ExpiringMap } from '../../cache/expiring-map';

const MAX_TOKENS = 10_000;

/**
 * Tokens that authenticated a moment ago, with their merchant, keyed by the token's SHA-256 (as
 * in the database: no token is kept in memory). Serves only @TokenCheckedByStatement routes, whose
 * statement checks the token again in its own transaction, so the cache can never let a revoked
 * token or an inactive merchant change anything; it saves those requests a round trip.
 * It forgets everything when a token is revoked or a merchant changes (a trigger NOTIFYs
 * `merchant_auth_changed`, migration 20261128020000), so the IP allowlist, rate limits and status
 * it holds are as fresh as the notification; entries live at most `ttlMs` anyway. While the
 * LISTEN connection is down (or not yet started by its owner, gateway.app.ts) it serves nothing: a
 * change could go unheard. Only tokens that authenticated are kept, so unknown tokens cannot fill it.
 */
export class MerchantAuthCache {
  private readonly entries = new ExpiringMap<string, AuthenticatedMerchant>(MAX_TOKENS);
  /** Bumped at every change heard: a lookup that began before a change may not be remembered after it. */
  private changes = 0;

  /** With `ttlMs` 0 the cache is off: it adds no channel and keeps nothing. */
  constructor(
    private readonly listener: PgListener,
    private readonly ttlMs: number,
  ) {
    const forget = () => {
      this.changes += 1;
      this.entries.clear();
    };
    if (ttlMs > 0) listener.listen({ channel: MERCHANT_AUTH_CHANGED_CHANNEL, onNotify: forget, onReconnect: forget });
  }

  get(tokenHash: string): AuthenticatedMerchant | undefined {
    return this.listener.listening ? this.entries.get(tokenHash) : undefined;
  }

  /** Call before the lookup whose result `remember` is to be given. */
  version(): number {
    return this.changes;
  }

  /** Keeps a lookup's merchant, unless a change was heard since `version` (it may predate the change). */
  remember(tokenHash: string, merchant: AuthenticatedMerchant, version: number): void {
    if (!this.listener.listening || version !== this.changes || this.ttlMs <= 0) return;
    const now = Date.now();
    this.entries.set(tokenHash, merchant, now + this.ttlMs, now);
  }
}
