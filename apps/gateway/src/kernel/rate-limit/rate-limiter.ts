import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import type { AuthenticatedMerchant } from '@pay/persistence';
import { ApiError, type Logger, type QueueConfig, type RedisConfig, throttledWarn } from '@pay/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { type GcraGrant, withGcra } from './gcra';
import { createLimiterRedis, waitForLimiterRedis } from './limiter-redis';
import { Leases } from './leases';
import { policyFor, type RateLimitClass, type RateLimitPolicy } from './rate-limit.class';
import type { RateLimitConfig } from './rate-limit.config';
import { rateLimitClassOf } from './rate-limit.decorator';
import { type Standing, Standings } from './standings';

/** The parts of the gateway's config the limiter reads. */
export interface RateLimiterSettings {
  rateLimits: RateLimitConfig;
  redis: RedisConfig;
  /** Its keys share the queues' prefix, so environments sharing one Redis never see each other's */
  queues: QueueConfig;
}

/**
 * Per-merchant, per-class limits kept in Redis (so they hold across gateway replicas), on a
 * connection of its own: it never queues behind the recon producer, and its short command
 * timeout bounds what the limiter adds to a request. Fails open: while Redis is away or slow
 * every request is served unlimited (a throttled warn line and rate_limiter_unavailable_total
 * say so), because a limiter outage must not take payments down with it.
 *
 * A class at its limit is remembered in this process until its next request can be allowed
 * (Standings): GCRA's timestamp only moves forward, so no replica can allow one before then, and
 * the requests meanwhile are refused from memory, without Redis (and, through
 * registerLocalRefusal, without the database).
 *
 * A class busy on this replica takes its cells from Redis several at a time and serves them from
 * memory for up to 100 ms (Leases, decision 0045): one EVALSHA per lease instead of one a request,
 * and never a cell Redis did not charge.
 */
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly redis: Redis;
  private readonly gcra: ReturnType<typeof withGcra>;
  private readonly limited: Counter<'class'>;
  private readonly unavailable: Counter;
  private readonly warnUnavailable: (err: unknown) => void;
  private readonly standings = new Standings();
  private readonly leases = new Leases();
  private readonly settings: RateLimitConfig;
  /** Its Redis keys: `<prefix>:<merchant>:<class>` */
  private readonly keyPrefix: string;

  constructor(config: RateLimiterSettings, logger: Logger, registry: Registry) {
    this.settings = config.rateLimits;
    this.keyPrefix = `${config.queues.prefix}:ratelimit`;
    this.redis = createLimiterRedis(config.redis.url, {
      name: 'gateway-rate-limit',
      commandTimeoutMs: this.settings.redisTimeoutMs,
      lazy: !this.settings.enabled,
      logger,
      onError: 'rate limiter redis: connection error (reconnecting; requests are served unlimited meanwhile)',
    });
    this.gcra = withGcra(this.redis);
    this.warnUnavailable = throttledWarn(logger, 'rate limiter unavailable: requests are served without rate limits');
    this.limited = new Counter({
      name: 'http_rate_limited_total',
      help: 'Requests refused with 429 RATE_LIMITED, by endpoint class',
      labelNames: ['class'],
      registers: [registry],
    });
    this.unavailable = new Counter({
      name: 'rate_limiter_unavailable_total',
      help: 'Requests served without a rate-limit check because the limiter Redis failed or was slow (fail open)',
      registers: [registry],
    });
  }

  /** Waits a little for Redis, so the first requests after start-up are limited too (never fails: the limiter fails open). */
  async onModuleInit(): Promise<void> {
    if (this.settings.enabled) await waitForLimiterRedis(this.redis);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  /**
   * Charges a request to the merchant a guard has just identified (MerchantAuthGuard: the API
   * token's; the session guards: a merchant user's) under its route's @RateLimit class; a route
   * without one is not limited. Called at the end of those guards, so the merchant is known (and
   * allowed in: a 401 or 403 spends no budget) and nothing else has run yet: a refused request is
   * neither validated nor handled. Guards rather than a Nest interceptor: an interceptor wraps
   * every call of every route in rxjs observables (decision 0017).
   */
  async charge(
    req: FastifyRequest,
    reply: FastifyReply,
    merchant: Pick<AuthenticatedMerchant, 'id' | 'rateLimits'>,
  ): Promise<void> {
    const cls = rateLimitClassOf(req);
    if (cls) await this.enforce(merchant, cls, reply);
  }

  /**
   * Counts one request of the merchant in the class: sets the RateLimit-* headers on the reply
   * and, over the limit, throws 429 RATE_LIMITED with Retry-After. Served unchecked (no headers)
   * when limits are off or the limiter is unavailable.
   */
  async enforce(
    merchant: Pick<AuthenticatedMerchant, 'id' | 'rateLimits'>,
    cls: RateLimitClass,
    reply: FastifyReply,
  ): Promise<void> {
    if (!this.settings.enabled) return;
    const key = standingKey(merchant.id, cls);
    const policy = policyFor(cls, merchant.rateLimits, this.settings);
    for (;;) {
      const now = Date.now();
      const cell = this.leases.take(key, now);
      if (cell) return setHeaders(reply, cell.policy, cell.remaining, cell.resetAt - now);
      const standing = this.standings.refusal(key, now);
      if (standing) this.refuseFor(cls, standing, reply, now);
      const pending = this.leases.pending(key);
      if (!pending) return this.ask(key, merchant.id, cls, policy, reply, now);
      // Another request of the class is asking Redis: its lease may hold a cell for this one too.
      await pending;
    }
  }

  /** Whether any merchant class may be at its limit: while none is, the early check does not even hash the token. */
  get contended(): boolean {
    return this.standings.active;
  }

  /**
   * The early check, before the token lookup, of a merchant class at its limit: throws its 429
   * while no request can be allowed; once one can, lets one request on to ask Redis and makes
   * the others wait for that answer (the returned promise), then checks them again.
   */
  admit(merchantId: number, cls: RateLimitClass, reply: FastifyReply): Promise<void> | undefined {
    const now = Date.now();
    const key = standingKey(merchantId, cls);
    // Cells leased before the class reached its limit were charged already: they are served.
    if (this.leases.holds(key, now)) return undefined;
    const admission = this.standings.admit(key, now);
    if (!admission) return undefined;
    if ('refused' in admission) this.refuseFor(cls, admission.refused, reply, now);
    if ('wait' in admission) return admission.wait.then(() => this.admit(merchantId, cls, reply));
    // This request asks Redis; should it end before (a 401), the next one does.
    reply.raw.once('close', admission.release);
    return undefined;
  }

  /** 429 RATE_LIMITED with Retry-After, counted in http_rate_limited_total; also for limits kept elsewhere (exports in progress). */
  refuse(cls: RateLimitClass, reply: FastifyReply, retryAfterSeconds: number, message: string): never {
    this.limited.inc({ class: cls });
    void reply.header('Retry-After', String(retryAfterSeconds));
    throw new ApiError(ErrorCode.RateLimited, message);
  }

  /**
   * Asks Redis for cells of the class (Leases.ask says how many): this request takes one, a lease
   * keeps the rest for the class's next requests; a refusal is a 429 and a standing.
   */
  private async ask(
    key: string,
    merchantId: number,
    cls: RateLimitClass,
    policy: RateLimitPolicy,
    reply: FastifyReply,
    sentAt: number,
  ): Promise<void> {
    const want = this.leases.ask(key, policy, sentAt);
    let grant: GcraGrant | null = null;
    try {
      grant = await this.consume(merchantId, cls, policy, want);
    } finally {
      // Wakes the requests that waited for this answer: they take their cells from the lease, or ask again.
      if (grant?.allowed)
        this.leases.grant(key, policy, grant.granted, grant.remaining, sentAt + grant.resetMs, Date.now());
      else this.leases.drop(key);
    }
    if (!grant) {
      this.standings.forget(key);
      return;
    }
    this.standings.learn(key, policy, grant, sentAt);
    setHeaders(reply, policy, grant.remaining + Math.max(0, grant.granted - 1), grant.resetMs);
    if (grant.allowed) return;
    const retryAfter = Math.max(1, Math.ceil(grant.retryAfterMs / 1000));
    this.refuse(cls, reply, retryAfter, refusalMessage(cls, policy, retryAfter));
  }

  /** `want` cells of the merchant's class from Redis, or null when Redis failed (fail open: served unlimited). */
  private async consume(
    merchantId: number,
    cls: RateLimitClass,
    policy: RateLimitPolicy,
    want: number,
  ): Promise<GcraGrant | null> {
    try {
      return await this.gcra(`${this.keyPrefix}:${merchantId}:${cls}`, policy.limit, policy.windowSeconds * 1000, want);
    } catch (err) {
      this.unavailable.inc();
      this.warnUnavailable(err);
      return null;
    }
  }

  private refuseFor(cls: RateLimitClass, standing: Standing, reply: FastifyReply, now: number): never {
    setHeaders(reply, standing.policy, 0, standing.resetAt - now);
    const retryAfter = Math.max(1, Math.ceil((standing.until - now) / 1000));
    this.refuse(cls, reply, retryAfter, refusalMessage(cls, standing.policy, retryAfter));
  }
}

const standingKey = (merchantId: number, cls: RateLimitClass) => `${merchantId}:${cls}`;

function refusalMessage(cls: RateLimitClass, policy: RateLimitPolicy, retryAfter: number): string {
  return `Too many ${cls} requests: the limit is ${describe(policy)}; retry after ${retryAfter} s`;
}

function setHeaders(reply: FastifyReply, policy: RateLimitPolicy, remaining: number, resetMs: number): void {
  void reply.header('RateLimit-Limit', String(policy.limit));
  void reply.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  void reply.header('RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  void reply.header('RateLimit-Policy', `${policy.limit};w=${policy.windowSeconds}`);
}

function describe(p: RateLimitPolicy): string {
  return p.windowSeconds === 1 ? `${p.limit} per second` : `${p.limit} per ${p.windowSeconds} seconds`;
}
