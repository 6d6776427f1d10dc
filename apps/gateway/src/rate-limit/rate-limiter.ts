import { once } from 'node:events';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import type { AuthenticatedMerchant } from '@pay/persistence';
import { ApiError, type Logger, throttledWarn } from '@pay/platform';
import type { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { ExpiringMap } from '../cache/expiring-map';
import { type GcraResult, withGcra } from './gcra';
import { policyFor, type RateLimitClass, type RateLimitDefaults, type RateLimitPolicy } from './rate-limit.class';

export interface RateLimiterSettings extends RateLimitDefaults {
  RATE_LIMIT_ENABLED: boolean;
  RATE_LIMIT_REDIS_TIMEOUT_MS: number;
  REDIS_URL: string;
  QUEUE_PREFIX: string;
}

export interface RateLimitDecision extends GcraResult {
  cls: RateLimitClass;
  policy: RateLimitPolicy;
}

/** How long start-up waits for the limiter's Redis; past it the gateway starts and fails open until Redis answers. */
const STARTUP_WAIT_MS = 2_000;
/** Merchant classes refused at once; each entry lives only until its Retry-After, so this is never reached in practice. */
const MAX_REFUSALS = 10_000;

/** A refusal Redis answered, kept until it ends: local clock, ms since the epoch. */
interface Refusal {
  /** No request of the merchant in the class can be allowed before this (GCRA's TAT only moves on) */
  until: number;
  /** When the merchant's full limit is back */
  resetAt: number;
  policy: RateLimitPolicy;
}

/**
 * Per-merchant, per-class limits kept in Redis (so they hold across gateway replicas), on a
 * connection of its own: it never queues behind the recon producer, and its short command
 * timeout bounds what the limiter adds to a request. Fails open: while Redis is away or slow
 * every request is served unlimited (a throttled warn line and rate_limiter_unavailable_total
 * say so), because a limiter outage must not take payments down with it.
 *
 * A refusal is remembered in this process until its Retry-After: GCRA's timestamp only moves
 * forward, so no replica can allow the merchant's class before then, and the next requests are
 * refused from memory, without Redis (and, through registerLocalRefusal, without the database).
 */
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly redis: Redis;
  private readonly gcra: ReturnType<typeof withGcra>;
  private readonly limited: Counter<'class'>;
  private readonly unavailable: Counter;
  private readonly warnUnavailable: (err: unknown) => void;
  private readonly refusals = new ExpiringMap<string, Refusal>(MAX_REFUSALS);
  /** When the last running refusal ends */
  private refusalsUntil = 0;

  constructor(
    private readonly settings: RateLimiterSettings,
    logger: Logger,
    registry: Registry,
  ) {
    this.redis = new Redis(settings.REDIS_URL, {
      connectionName: 'gateway-rate-limit',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: settings.RATE_LIMIT_REDIS_TIMEOUT_MS,
      connectTimeout: STARTUP_WAIT_MS,
      lazyConnect: !settings.RATE_LIMIT_ENABLED,
    });
    this.redis.on('error', throttledWarn(logger, 'rate limiter redis: connection error (reconnecting; requests are served unlimited meanwhile)'));
    this.gcra = withGcra(this.redis);
    this.warnUnavailable = throttledWarn(logger, 'rate limiter unavailable: requests are served without rate limits');
    this.limited = new Counter({ name: 'http_rate_limited_total', help: 'Requests refused with 429 RATE_LIMITED, by endpoint class', labelNames: ['class'], registers: [registry] });
    this.unavailable = new Counter({ name: 'rate_limiter_unavailable_total', help: 'Requests served without a rate-limit check because the limiter Redis failed or was slow (fail open)', registers: [registry] });
  }

  /** Waits a little for Redis, so the first requests after start-up are limited too. */
  async onModuleInit(): Promise<void> {
    if (!this.settings.RATE_LIMIT_ENABLED || this.redis.status === 'ready') return;
    const timer = new Promise((resolve) => setTimeout(resolve, STARTUP_WAIT_MS).unref());
    await Promise.race([once(this.redis, 'ready'), timer]);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  /**
   * Counts one request of the merchant in the class: sets the RateLimit-* headers on the reply
   * and, over the limit, throws 429 RATE_LIMITED with Retry-After. Served unchecked (no headers)
   * when limits are off or the limiter is unavailable.
   */
  async enforce(merchant: AuthenticatedMerchant, cls: RateLimitClass, reply: FastifyReply): Promise<void> {
    this.refuseIfRefusing(merchant.id, cls, reply);
    const decision = await this.consume(merchant, cls);
    if (!decision) return;
    const { policy } = decision;
    if (decision.allowed) {
      setHeaders(reply, policy, decision.remaining, decision.resetMs);
      return;
    }
    const now = Date.now();
    const refusal: Refusal = { until: now + decision.retryAfterMs, resetAt: now + decision.resetMs, policy };
    this.refusals.set(refusalKey(merchant.id, cls), refusal, refusal.until, now);
    this.refusalsUntil = Math.max(this.refusalsUntil, refusal.until);
    this.refuseFor(cls, refusal, reply, now);
  }

  /** Whether any refusal is still running: while none is, the early check does not even hash the token. */
  get refusing(): boolean {
    return Date.now() < this.refusalsUntil;
  }

  /** Throws the 429 of a refusal Redis already answered for the merchant's class, if it still runs. */
  refuseIfRefusing(merchantId: number, cls: RateLimitClass, reply: FastifyReply): void {
    const now = Date.now();
    const refusal = this.refusals.get(refusalKey(merchantId, cls), now);
    if (refusal) this.refuseFor(cls, refusal, reply, now);
  }

  /** 429 RATE_LIMITED with Retry-After, counted in http_rate_limited_total; also for limits kept elsewhere (exports in progress). */
  refuse(cls: RateLimitClass, reply: FastifyReply, retryAfterSeconds: number, message: string): never {
    this.limited.inc({ class: cls });
    void reply.header('Retry-After', String(retryAfterSeconds));
    throw new ApiError(ErrorCode.RateLimited, message);
  }

  private async consume(merchant: AuthenticatedMerchant, cls: RateLimitClass): Promise<RateLimitDecision | null> {
    if (!this.settings.RATE_LIMIT_ENABLED) return null;
    const policy = policyFor(cls, merchant.rateLimits, this.settings);
    try {
      const result = await this.gcra(`${this.settings.QUEUE_PREFIX}:ratelimit:${merchant.id}:${cls}`, policy.limit, policy.windowSeconds * 1000);
      return { ...result, cls, policy };
    } catch (err) {
      this.unavailable.inc();
      this.warnUnavailable(err);
      return null;
    }
  }

  private refuseFor(cls: RateLimitClass, refusal: Refusal, reply: FastifyReply, now: number): never {
    setHeaders(reply, refusal.policy, 0, refusal.resetAt - now);
    const retryAfter = Math.max(1, Math.ceil((refusal.until - now) / 1000));
    this.refuse(cls, reply, retryAfter, `Too many ${cls} requests: the limit is ${describe(refusal.policy)}; retry after ${retryAfter} s`);
  }
}

const refusalKey = (merchantId: number, cls: RateLimitClass) => `${merchantId}:${cls}`;

function setHeaders(reply: FastifyReply, policy: RateLimitPolicy, remaining: number, resetMs: number): void {
  void reply.header('RateLimit-Limit', String(policy.limit));
  void reply.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  void reply.header('RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  void reply.header('RateLimit-Policy', `${policy.limit};w=${policy.windowSeconds}`);
}

function describe(p: RateLimitPolicy): string {
  return p.windowSeconds === 1 ? `${p.limit} per second` : `${p.limit} per ${p.windowSeconds} seconds`;
}
