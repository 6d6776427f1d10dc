import { Module, type Provider } from '@nestjs/common';
import { type MerchantClock, type PrismaClient, REAL_TIME, SandboxClockRepository } from '@pay/persistence';
import type { Pool } from 'pg';
import { createMetricsRegistry, type Logger, type ReadinessCheck } from '@pay/platform';
import type Redis from 'ioredis';
import type { Registry } from 'prom-client';
import {
  ADMIN_SETTINGS,
  DASHBOARD_CLOCK,
  GATEWAY_CONFIG,
  LOGGER,
  MERCHANT_CLOCK,
  METRICS_REGISTRY,
  PG_POOL,
  PRISMA,
  READINESS_CHECKS,
  REDIS,
} from '../gateway.tokens';
import { AdminTokenGuard, type AdminSettings } from './auth/admin/admin-token.guard';
import { MerchantAuthGuard } from './auth/merchant/merchant-auth.guard';
import { OperatorGuard } from './auth/operator.guard';
import { SessionAuthenticator } from './auth/session/session-authenticator';
import { MerchantSessionGuard, OperatorSessionGuard } from './auth/session/session.guards';
import { AuditInterceptor } from './audit/audit.interceptor';
import { HealthController } from './health/health.controller';
import { RateLimiter, type RateLimiterSettings } from './rate-limit/rate-limiter';
import { REPOSITORIES } from './repositories';

/** The settings the kernel reads (a part of GatewayConfig). */
type KernelSettings = RateLimiterSettings & { opsApi: AdminSettings; payins: { sandbox: boolean } };

const PROVIDERS: Provider[] = [
  ...REPOSITORIES,
  { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry('gateway') },
  {
    provide: READINESS_CHECKS,
    useFactory: (prisma: PrismaClient, redis: Redis): ReadinessCheck[] => [
      { name: 'postgres', check: async () => void (await prisma.$queryRaw`SELECT 1`) },
      // Transfers and pay-ins reach the ledger through the bus on Redis, and recon exports queue there.
      { name: 'redis', check: async () => void (await redis.ping()) },
    ],
    inject: [PRISMA, REDIS],
  },
  {
    provide: RateLimiter,
    useFactory: (settings: KernelSettings, logger: Logger, registry: Registry) =>
      new RateLimiter(settings, logger, registry),
    inject: [GATEWAY_CONFIG, LOGGER, METRICS_REGISTRY],
  },
  {
    provide: ADMIN_SETTINGS,
    useFactory: (settings: KernelSettings): AdminSettings => settings.opsApi,
    inject: [GATEWAY_CONFIG],
  },
  { provide: DASHBOARD_CLOCK, useValue: () => new Date() },
  // Sandbox clocks exist in SANDBOX_MODE only: elsewhere the repository is absent and every merchant is on real time, with no lookup.
  {
    provide: SandboxClockRepository,
    useFactory: (settings: KernelSettings, pool: Pool) =>
      settings.payins.sandbox ? new SandboxClockRepository(pool) : null,
    inject: [GATEWAY_CONFIG, PG_POOL],
  },
  {
    provide: MERCHANT_CLOCK,
    useFactory: (clocks: SandboxClockRepository | null): MerchantClock => clocks ?? REAL_TIME,
    inject: [SandboxClockRepository],
  },
  SessionAuthenticator,
  MerchantAuthGuard,
  MerchantSessionGuard,
  OperatorSessionGuard,
  AdminTokenGuard,
  OperatorGuard,
  AuditInterceptor,
];

/**
 * What every face stands on: the repositories, the three credentials (merchant token, dashboard
 * and console sessions, admin token), the rate limiter, the audit log, metrics and readiness
 * (with /healthz, /readyz and /metrics). The app's dependencies (database, Redis, settings, ...)
 * come from the global module gateway.module.ts registers.
 */
@Module({
  controllers: [HealthController],
  providers: PROVIDERS,
  exports: PROVIDERS.map((p) => ('provide' in p ? p.provide : p)),
})
export class KernelModule {}
