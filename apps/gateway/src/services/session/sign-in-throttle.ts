import { createHash } from 'node:crypto';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { type DashboardRole, normaliseEmail } from '@pay/persistence';
import { ApiError, type Logger, type QueueConfig, type RedisConfig, throttledWarn } from '@pay/platform';
import ipaddr from 'ipaddr.js';
import type Redis from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { withGcra } from '../../kernel/rate-limit/gcra';
import { createLimiterRedis, waitForLimiterRedis } from '../../kernel/rate-limit/limiter-redis';
import { RetryLaterError, retryAfterSecondsOf } from './retry-later.error';
import type { SignInConfig } from '../../kernel/rate-limit/sign-in.config';

/** Consecutive failures of one account from one address before each next one waits (decision 0023). */
export const FREE_FAILURES = 5;
/** Failures of one account from all addresses (each address's first FREE_FAILURES only) before every unknown address waits. */
export const ACCOUNT_FREE_FAILURES = 20;
/** The first wait, doubled by every further failure, up to BACKOFF_MAX_MS. */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 15 * 60_000;
/** How long failures are remembered after the last one. */
const FAILURES_KEPT_MS = 24 * 3_600_000;
/** How long an address the account signed in from stays exempt from the account-wide wait. */
const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;
/** Sign-in waits this long for Redis at most; then it answers 503 (fails closed). */
const REDIS_TIMEOUT_MS = 1_000;

/** Who is trying: the endpoint's audience, the email as typed, the client's address (req.ip). */
export interface SignInAttempt {
  role: DashboardRole;
  email: string;
  address: string;
}

/**
 * The wait before the next attempt: how long, in ms, the pair (account from this address) or, for
 * an address the account never signed in from, the account as a whole, must wait. Redis' clock.
 */
const CHECK_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
local pair = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if pair > now then wait = pair - now end
if redis.call('EXISTS', KEYS[3]) == 0 then
  local account = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
  if account - now > wait then wait = account - now end
end
return wait
`;

/**
 * One more failure of the pair (KEYS[1]) and, while the pair is within its free failures, of the
 * account (KEYS[2]): from the threshold on, each failure sets the next allowed attempt
 * base * 2^(failures - threshold) ms ahead, at most max. An address past its free failures no
 * longer counts for the account, so no one address can make the whole account wait.
 */
const FAIL_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free, accountFree = tonumber(ARGV[1]), tonumber(ARGV[2])
local base, max, kept = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local function count(key, threshold)
  local n = redis.call('HINCRBY', key, 'n', 1)
  if n >= threshold then
    redis.call('HSET', key, 'until', string.format('%d', now + math.min(max, base * 2 ^ (n - threshold))))
  end
  redis.call('PEXPIRE', key, kept)
  return n
end
if count(KEYS[1], free) <= free then count(KEYS[2], accountFree) end
return 0
`;

type ThrottleRedis = Redis & {
  signInCheck(pair: string, account: string, known: string): Promise<number>;
  signInFail(pair: string, account: string, ...args: number[]): Promise<number>;
};

/**
 * Sign-in's brute-force and enumeration defence, in Redis (so it holds across replicas), instead
 * of a lock anyone who knows an email could set off (decision 0023):
 * - per client address, every sign-in and set-password request: SIGN_IN_PER_ADDRESS_PER_MINUTE (GCRA);
 * - per account and address: FREE_FAILURES failures in a row, then each next attempt from that
 *   address waits 1 s, 2 s, 4 s, ... up to 15 minutes; a success from there clears it;
 * - per account, all addresses: ACCOUNT_FREE_FAILURES failures (each address's first
 *   FREE_FAILURES), then every address the account has not signed in from (in 30 days) waits the
 *   same way: many addresses together cannot guess fast either, and the user's own address is not
 *   held up by them.
 * The account is the SHA-256 of the audience and the email, so an unknown email, and another
 * audience's user, is counted and refused exactly like a real one. A waiting attempt is refused
 * before any lookup or hashing, 429 RATE_LIMITED with Retry-After.
 *
 * Fails closed: without Redis, sign-in answers 503 (existing sessions keep working, and so does
 * the merchant API), because a Redis outage must not switch off the only limit on guessing.
 */
export class SignInThrottle implements OnModuleInit, OnModuleDestroy {
  private readonly redis: ThrottleRedis;
  private readonly gcra: ReturnType<typeof withGcra>;
  private readonly prefix: string;
  private readonly perMinute: number;
  private readonly refused: Counter<'reason'>;
  private readonly unavailable: Counter;
  private readonly warnUnavailable: (err: unknown) => void;

  constructor(
    config: { signIn: SignInConfig; redis: RedisConfig; queues: QueueConfig },
    logger: Logger,
    registry: Registry,
  ) {
    this.prefix = `${config.queues.prefix}:signin`;
    this.perMinute = config.signIn.perAddressPerMinute;
    const redis = createLimiterRedis(config.redis.url, {
      name: 'gateway-sign-in',
      commandTimeoutMs: REDIS_TIMEOUT_MS,
      logger,
      onError: 'sign-in throttle redis: connection error (reconnecting; sign-in answers 503 meanwhile)',
    });
    redis.defineCommand('signInCheck', { numberOfKeys: 3, lua: CHECK_LUA });
    redis.defineCommand('signInFail', { numberOfKeys: 2, lua: FAIL_LUA });
    this.redis = redis as ThrottleRedis;
    this.gcra = withGcra(redis);
    this.warnUnavailable = throttledWarn(logger, 'sign-in throttle unavailable: sign-in answers 503');
    this.refused = new Counter({
      name: 'sign_in_throttled_total',
      help: 'Sign-in and set-password requests refused with 429 before any work: over the address limit (address) or while a failure backoff runs (backoff)',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.unavailable = new Counter({
      name: 'sign_in_throttle_unavailable_total',
      help: "Sign-in and set-password requests answered 503 because the throttle's Redis failed (fails closed)",
      registers: [registry],
    });
  }

  /** Waits a little for Redis, so the first sign-ins after start-up are not refused; never fails. */
  async onModuleInit(): Promise<void> {
    await waitForLimiterRedis(this.redis);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  /** set-password: the address's budget only (there is no account yet to count failures of). */
  async admitAddress(address: string): Promise<void> {
    const grant = await this.guard(() =>
      this.gcra(`${this.prefix}:addr:${addressKey(address)}`, this.perMinute, 60_000),
    );
    if (!grant.allowed) this.refuse('address', grant.retryAfterMs);
  }

  /**
   * Before any lookup or hashing: the address's budget, then the account's backoff. The same
   * Redis work whether the email is a user's or not.
   */
  async admit(attempt: SignInAttempt): Promise<void> {
    const keys = this.keysOf(attempt);
    const [grant, wait] = await this.guard(() =>
      Promise.all([
        this.gcra(keys.address, this.perMinute, 60_000),
        this.redis.signInCheck(keys.pair, keys.account, keys.known),
      ]),
    );
    if (!grant.allowed) this.refuse('address', grant.retryAfterMs);
    if (wait > 0) this.refuse('backoff', wait);
  }

  /** A wrong password or code (or a right password of a disabled user, or of nobody): counted. */
  async failed(attempt: SignInAttempt): Promise<void> {
    const keys = this.keysOf(attempt);
    await this.guard(() =>
      this.redis.signInFail(
        keys.pair,
        keys.account,
        FREE_FAILURES,
        ACCOUNT_FREE_FAILURES,
        BACKOFF_BASE_MS,
        BACKOFF_MAX_MS,
        FAILURES_KEPT_MS,
      ),
    );
  }

  /** Both factors proved: the pair's failures are forgotten and the address is known to the account. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const keys = this.keysOf(attempt);
    await this.guard(() => this.redis.multi().del(keys.pair).set(keys.known, '1', 'PX', KNOWN_ADDRESS_MS).exec());
  }

  private keysOf(attempt: SignInAttempt) {
    const address = addressKey(attempt.address);
    const account = createHash('sha256')
      .update(`${attempt.role}\n${normaliseEmail(attempt.email)}`)
      .digest('hex');
    // One hash slot per account (a Redis Cluster runs a script on keys of one slot only).
    const base = `${this.prefix}:{${account.slice(0, 32)}}`;
    return {
      address: `${this.prefix}:addr:${address}`,
      account: base,
      pair: `${base}:${address}`,
      known: `${base}:${address}:known`,
    };
  }

  private refuse(reason: 'address' | 'backoff', waitMs: number): never {
    this.refused.inc({ reason });
    const seconds = retryAfterSecondsOf(waitMs);
    throw new RetryLaterError(ErrorCode.RateLimited, seconds, `Too many sign-in attempts; retry after ${seconds} s`);
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      this.unavailable.inc();
      this.warnUnavailable(err);
      throw new ApiError(ErrorCode.ServiceUnavailable, 'Sign-in is unavailable for a moment; retry shortly');
    }
  }
}

/**
 * The address a limit counts: an IPv4 address (also written IPv4-mapped), or an IPv6 address's
 * /64, which one subscriber usually holds whole (counting each of its addresses would give one
 * caller 2^64 budgets).
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
