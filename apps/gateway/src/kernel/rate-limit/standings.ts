import { ExpiringMap } from '../cache/expiring-map';
import type { GcraResult } from './gcra';
import type { RateLimitPolicy } from './rate-limit.class';

/** Merchant classes at their limit at once; an entry lives until the class's full limit is back. */
const MAX_STANDINGS = 10_000;
/** The longest a request waits for the answer another request of its merchant class is getting from Redis */
const PROBE_WAIT_MS = 1_000;

/** What this replica knows of a merchant class that has used up its limit (local clock, ms since the epoch). */
export interface Standing {
  /** No request can be allowed before this: GCRA's timestamp only moves forward, whichever replica moves it */
  until: number;
  /** When the full limit is back */
  resetAt: number;
  policy: RateLimitPolicy;
  /** Once `until` has passed: the one request asking Redis for the class, whose answer the others wait for */
  probe?: Probe;
}

interface Probe {
  answered: Promise<void>;
  answer(): void;
}

/** Before the token lookup: refuse with the standing, wait for the probe's answer, or go on (as the probe: `release` when done). */
export type Admission = { refused: Standing } | { wait: Promise<void> } | { release: () => void } | undefined;

/**
 * The merchant classes this replica has seen at their limit, learnt from the limiter's answers:
 * a refusal, or an allowance that left nothing (RateLimit-Remaining 0), says when the next
 * request can be allowed at the earliest, and until then every request of the class is refused
 * from memory. When that time comes a flooder's requests arrive many at once; one of them asks
 * Redis and the others wait for its answer (admit), instead of each costing a token lookup and
 * a Redis round trip only to be refused. Classes with room left are not kept at all.
 */
export class Standings {
  private readonly standings = new ExpiringMap<string, Standing>(MAX_STANDINGS);
  /** When the last standing expires */
  private lastExpiry = 0;

  /** Whether any class may be at its limit: while none is, nothing needs checking. */
  get active(): boolean {
    return Date.now() < this.lastExpiry;
  }

  /** The standing of a class that no request can pass yet. */
  refusal(key: string, now: number): Standing | undefined {
    const standing = this.standings.get(key, now);
    return standing && now < standing.until ? standing : undefined;
  }

  admit(key: string, now: number): Admission {
    const standing = this.standings.get(key, now);
    if (!standing) return undefined;
    if (now < standing.until) return { refused: standing };
    if (standing.probe) return { wait: standing.probe.answered };
    const probe: Probe = newProbe(() => standing.probe === probe && answer(standing));
    standing.probe = probe;
    return { release: () => standing.probe === probe && answer(standing) };
  }

  /**
   * A limiter answer for a request sent at `sentAt` (earlier than Redis' own now, so the times
   * learnt are never later than the real ones): the class stands at its limit until the next
   * allowed request, or it has room and is forgotten. Wakes the requests waiting for a probe.
   */
  learn(key: string, policy: RateLimitPolicy, result: GcraResult, sentAt: number): void {
    const previous = this.standings.get(key, sentAt);
    if (previous) answer(previous);
    const windowMs = policy.windowSeconds * 1000;
    // Redis rounds its durations up: one ms less keeps `until` no later than the real moment.
    const until =
      sentAt + (result.allowed ? result.resetMs - 1 + windowMs / policy.limit - windowMs : result.retryAfterMs - 1);
    if (until <= sentAt) {
      if (previous) this.standings.delete(key);
      return;
    }
    const resetAt = Math.max(until, sentAt + result.resetMs);
    this.standings.set(key, { until, resetAt, policy }, resetAt, sentAt);
    this.lastExpiry = Math.max(this.lastExpiry, resetAt);
  }

  /** The limiter could not answer (fail open): nothing is known of the class any more. */
  forget(key: string): void {
    const standing = this.standings.get(key);
    if (standing) answer(standing);
    this.standings.delete(key);
  }
}

/** `expire` runs if the probe's request neither reaches the limiter nor ends in time (a stalled body): the others go on. */
function newProbe(expire: () => void): Probe {
  let resolve!: () => void;
  const answered = new Promise<void>((r) => (resolve = r));
  const timer = setTimeout(expire, PROBE_WAIT_MS).unref();
  return {
    answered,
    answer: () => {
      clearTimeout(timer);
      resolve();
    },
  };
}

function answer(standing: Standing): void {
  standing.probe?.answer();
  standing.probe = undefined;
}
