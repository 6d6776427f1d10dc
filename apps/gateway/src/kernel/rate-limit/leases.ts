import { ExpiringMap } from '../cache/expiring-map';
import type { RateLimitPolicy } from './rate-limit.class';

/** Merchant classes holding a lease at once (oldest dropped beyond: a dropped lease only costs its cells). */
const MAX_LEASES = 10_000;
/** How long a leased cell may be served after Redis charged it. */
export const LEASE_TTL_MS = 100;
/** A replica leases at most this share of a class's burst at once. */
const MAX_SHARE_OF_BURST = 10;

/** A cell served from a lease: what the RateLimit headers say of the class. */
export interface LeasedCell {
  policy: RateLimitPolicy;
  /** Cells left to the merchant now: the bucket's at the grant, and this lease's */
  remaining: number;
  /** When the bucket is full again (local clock, ms since the epoch) */
  resetAt: number;
}

interface Lease {
  policy: RateLimitPolicy;
  /** Cells granted in the lease (the request that asked took one of them) */
  size: number;
  /** Cells not served yet */
  left: number;
  /** The bucket's free cells after the grant */
  remaining: number;
  resetAt: number;
  /** Cells may be served until then */
  expiresAt: number;
  /** Requests of the class that waited for the answer that brought it */
  demand: number;
}

interface Pending {
  answered: Promise<void>;
  answer(): void;
  waiting: number;
}

/**
 * Cells of a merchant class's GCRA bucket that this replica took from Redis in one round trip and
 * serves from memory (decision 0045): a busy merchant's requests cost one EVALSHA per lease
 * instead of one each, and every cell served was charged in Redis first, so no replica can let
 * through more than the bucket allows. A lease lives LEASE_TTL_MS: a cell is served at most that
 * long after it was charged, which bounds what a lease can add to a burst.
 *
 * The size adapts to the class's traffic on this replica: a class starts at one cell a request
 * (exactly the per-request limiter); a lease used up before it expires makes the next one twice
 * as large (or as large as the requests that waited for it), up to a tenth of the burst; a lease
 * that expires with cells left makes the next one the size of what was used. A quiet class never
 * holds more than one cell, so its limit is as exact as before, and classes with a burst under 20
 * (the export class, a merchant's own low limits) always lease one cell.
 *
 * One request of a class asks Redis at a time (`ask`, then `grant` or `drop`); the others wait
 * for its answer (`pending`) and take their cells from the lease it brings.
 */
export class Leases {
  private readonly leases = new ExpiringMap<string, Lease>(MAX_LEASES);
  private readonly pendings = new Map<string, Pending>();

  /** A cell of the class's live lease, taken; undefined when it has none left. */
  take(key: string, now: number): LeasedCell | undefined {
    const lease = this.leases.get(key, now);
    if (!lease || lease.left === 0 || now >= lease.expiresAt) return undefined;
    lease.left--;
    return { policy: lease.policy, remaining: lease.remaining + lease.left, resetAt: lease.resetAt };
  }

  /** Whether the class has cells to serve: an early refusal from its standing must not pass over them. */
  holds(key: string, now: number): boolean {
    const lease = this.leases.get(key, now);
    return lease !== undefined && lease.left > 0 && now < lease.expiresAt;
  }

  /** The answer another request of the class is getting from Redis, if one is; waiting for it counts as demand. */
  pending(key: string): Promise<void> | undefined {
    const pending = this.pendings.get(key);
    if (!pending) return undefined;
    pending.waiting++;
    return pending.answered;
  }

  /**
   * This request asks Redis for the class: how many cells to ask for (at least 1). Until it calls
   * `grant` or `drop`, the class's other requests wait for it (`pending`).
   */
  ask(key: string, policy: RateLimitPolicy, now: number): number {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    this.pendings.set(key, { answered, answer, waiting: 0 });
    const previous = this.leases.get(key, now);
    const max = Math.max(1, Math.floor(policy.limit / MAX_SHARE_OF_BURST));
    if (!previous || previous.policy.limit !== policy.limit) return 1;
    const usedUpInTime = previous.left === 0 && now < previous.expiresAt;
    const next = usedUpInTime ? previous.size * 2 : previous.size - previous.left;
    return Math.min(max, Math.max(1, next, previous.demand + 1));
  }

  /**
   * Redis granted `granted` cells of the class, the asking request taking one: the rest are served
   * from memory until LEASE_TTL_MS has passed. The entry is kept as long again, so the next request
   * to ask sees how the lease was used and sizes its own. Wakes the requests that waited.
   */
  grant(key: string, policy: RateLimitPolicy, granted: number, remaining: number, resetAt: number, now: number): void {
    const pending = this.settle(key);
    const expiresAt = now + LEASE_TTL_MS;
    this.leases.set(
      key,
      {
        policy,
        size: granted,
        left: Math.max(0, granted - 1),
        remaining,
        resetAt,
        expiresAt,
        demand: pending?.waiting ?? 0,
      },
      expiresAt + LEASE_TTL_MS,
      now,
    );
    pending?.answer();
  }

  /** The limiter refused the class or failed: it holds nothing, its next lease starts at one cell, and the waiting requests go on. */
  drop(key: string): void {
    this.leases.delete(key);
    this.settle(key)?.answer();
  }

  private settle(key: string): Pending | undefined {
    const pending = this.pendings.get(key);
    this.pendings.delete(key);
    return pending;
  }
}
