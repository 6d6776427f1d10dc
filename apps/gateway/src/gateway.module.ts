import { type DynamicModule, Module } from '@nestjs/common';
import type { BankRail } from '@pay/bank-rail';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import {
  BalanceRepository,
  DashboardPasswordLinkRepository,
  DashboardSessionRepository,
  DashboardUserAdmin,
  DashboardUserRepository,
  DeadLetterRepository,
  DeliveryHistoryRepository,
  DisbursementRepository,
  HistoryRepository,
  MerchantAuthRepository,
  AuditLogRepository,
  OverviewRepository,
  PayinRepository,
  type PrismaClient,
  type PgListener,
  ReconExportRepository,
  SettlementListRepository,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import {
  createMetricsRegistry,
  type Logger,
  type ObjectStore,
  type ReadinessCheck,
  type ReconExportProducer,
} from '@pay/platform';
import { MerchantAuthGuard } from './kernel/auth/merchant/merchant-auth.guard';
import { BalanceController } from './balance/balance.controller';
import { DashboardDevelopersController } from './dashboard/merchant/developers.controller';
import { DashboardActivityController } from './dashboard/merchant/activity.controller';
import { DashboardOverviewController } from './dashboard/merchant/overview.controller';
import { DashboardPayinsController } from './dashboard/merchant/payins.controller';
import { DashboardPayoutsController } from './dashboard/merchant/payouts.controller';
import { DashboardReconController } from './dashboard/merchant/recon.controller';
import { AccountInquiryService } from './services/disbursement/account-inquiry.service';
import { DecisionWaiter } from './services/disbursement/decision-waiter';
import { DashboardAuthService } from './services/session/dashboard-auth.service';
import { SessionAuthenticator } from './kernel/auth/session/session-authenticator';
import { MerchantSessionGuard, OperatorSessionGuard } from './kernel/auth/session/session.guards';
import { ConsoleSessionController, DashboardSessionController } from './dashboard/auth/session.controllers';
import { DashboardUserOpsController } from './ops/dashboard-user-ops.controller';
import { DisbursementController } from './disbursement/disbursement.controller';
import { TransferService } from './services/disbursement/transfer.service';
import type { GatewayConfig } from './gateway.config';
import {
  ADMIN_SETTINGS,
  BANK_RAIL,
  DASHBOARD_CLOCK,
  GATEWAY_CONFIG,
  LOGGER,
  METRICS_REGISTRY,
  OBJECT_STORE,
  PRISMA,
  READINESS_CHECKS,
  RECON_PRODUCER,
} from './gateway.tokens';
import { ReconController } from './recon/recon.controller';
import { ReconExportService } from './services/recon/recon-export.service';
import {
  BalanceMovementsController,
  DisbursementListController,
  PayinListController,
} from './history/history.controllers';
import { HealthController } from './kernel/health/health.controller';
import { AcquirerController } from './payin/acquirer.controller';
import { AcquirerService } from './services/payin/acquirer.service';
import { PayinController } from './payin/payin.controller';
import { QrisService } from './services/payin/qris.service';
import { SandboxPayService } from './services/payin/sandbox-pay.service';
import { PayinCallbackUrlService } from './services/settings/payin-callback-url.service';
import { LedgerOpsController } from './ops/ledger-ops.controller';
import { MerchantOpsController } from './ops/merchant-ops.controller';
import { MerchantSettingsOpsController } from './ops/merchant-settings-ops.controller';
import { TokenOpsController } from './ops/token-ops.controller';
import { WebhookOpsController } from './ops/webhook-ops.controller';
import { CallbackOpsController } from './ops/callback-ops.controller';
import { DeadLetterOpsController } from './ops/dead-letter-ops.controller';
import { RateLimiter } from './kernel/rate-limit/rate-limiter';
import { AuditInterceptor } from './kernel/audit/audit.interceptor';
import { ConsoleMerchantUsersController } from './dashboard/console/console-merchant-users.controller';
import { ConsoleUsersController } from './dashboard/console/console-users.controller';
import { ConsoleAuditLogController } from './dashboard/console/console-audit-log.controller';
import { ConsoleDeadLettersController } from './dashboard/console/console-dead-letters.controller';
import { ConsoleMerchantSettingsController } from './dashboard/console/console-merchant-settings.controller';
import { ConsoleMerchantsController } from './dashboard/console/console-merchants.controller';
import { ConsoleSettlementsController } from './dashboard/console/console-settlements.controller';
import { ConsoleWebhooksController } from './dashboard/console/console-webhooks.controller';

/** The operator console's JSON API (/console/api, internal port; decision 0023). */
const CONSOLE_CONTROLLERS = [
  ConsoleMerchantsController,
  ConsoleMerchantSettingsController,
  ConsoleSettlementsController,
  ConsoleDeadLettersController,
  ConsoleWebhooksController,
  ConsoleAuditLogController,
  ConsoleMerchantUsersController,
  ConsoleUsersController,
];

@Module({})
export class GatewayModule {
  static register(deps: {
    prisma: PrismaClient;
    pool: Pool;
    redis: Redis;
    rail: BankRail;
    config: GatewayConfig;
    store: ObjectStore;
    reconProducer: ReconExportProducer;
    notices: PgListener;
    logger: Logger;
  }): DynamicModule {
    const checks: ReadinessCheck[] = [
      { name: 'postgres', check: async () => void (await deps.prisma.$queryRaw`SELECT 1`) },
      // Transfers and pay-ins reach the ledger through the bus on Redis, and recon exports queue there.
      { name: 'redis', check: async () => void (await deps.redis.ping()) },
    ];
    return {
      module: GatewayModule,
      controllers: [
        BalanceController,
        PayinController,
        ReconController,
        AcquirerController,
        DisbursementController,
        WebhookOpsController,
        CallbackOpsController,
        MerchantOpsController,
        MerchantSettingsOpsController,
        TokenOpsController,
        DeadLetterOpsController,
        LedgerOpsController,
        HealthController,
        BalanceMovementsController,
        PayinListController,
        DisbursementListController,
        DashboardOverviewController,
        DashboardPayinsController,
        DashboardPayoutsController,
        DashboardReconController,
        DashboardDevelopersController,
        DashboardActivityController,
        DashboardSessionController,
        ConsoleSessionController,
        DashboardUserOpsController,
        ...CONSOLE_CONTROLLERS,
      ],
      providers: [
        { provide: PRISMA, useValue: deps.prisma },
        { provide: MerchantAuthRepository, useFactory: () => new MerchantAuthRepository(deps.pool) },
        { provide: BalanceRepository, useFactory: () => new BalanceRepository(deps.pool) },
        { provide: DisbursementRepository, useFactory: () => new DisbursementRepository(deps.pool) },
        { provide: WebhookDeliveryRepository, useFactory: () => new WebhookDeliveryRepository(deps.pool) },
        { provide: DeadLetterRepository, useFactory: () => new DeadLetterRepository(deps.pool) },
        { provide: HistoryRepository, useFactory: () => new HistoryRepository(deps.pool) },
        { provide: OverviewRepository, useFactory: () => new OverviewRepository(deps.pool) },
        { provide: DeliveryHistoryRepository, useFactory: () => new DeliveryHistoryRepository(deps.pool) },
        { provide: SettlementListRepository, useFactory: () => new SettlementListRepository(deps.pool) },
        { provide: AuditLogRepository, useFactory: () => new AuditLogRepository(deps.pool) },
        AuditInterceptor,
        {
          provide: ADMIN_SETTINGS,
          useValue: { adminToken: deps.config.ADMIN_TOKEN, previousAdminTokens: deps.config.ADMIN_TOKEN_PREVIOUS },
        },
        { provide: BANK_RAIL, useValue: deps.rail },
        { provide: GATEWAY_CONFIG, useValue: deps.config },
        { provide: LOGGER, useValue: deps.logger },
        { provide: PayinRepository, useFactory: () => new PayinRepository(deps.prisma) },
        { provide: ReconExportRepository, useFactory: () => new ReconExportRepository(deps.prisma) },
        { provide: OBJECT_STORE, useValue: deps.store },
        { provide: RECON_PRODUCER, useValue: deps.reconProducer },
        QrisService,
        SandboxPayService,
        ReconExportService,
        PayinCallbackUrlService,
        AcquirerService,
        AccountInquiryService,
        TransferService,
        { provide: DecisionWaiter, useFactory: () => new DecisionWaiter(deps.notices) },
        { provide: READINESS_CHECKS, useValue: checks },
        { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry('gateway') },
        MerchantAuthGuard,
        // The dashboard's and console's users and sessions (decision 0023).
        { provide: DashboardUserRepository, useFactory: () => new DashboardUserRepository(deps.pool) },
        { provide: DashboardSessionRepository, useFactory: () => new DashboardSessionRepository(deps.pool) },
        { provide: DashboardPasswordLinkRepository, useFactory: () => new DashboardPasswordLinkRepository(deps.pool) },
        {
          provide: DashboardUserAdmin,
          useFactory: () =>
            new DashboardUserAdmin(deps.pool, {
              dashboard: deps.config.DASHBOARD_PUBLIC_URL,
              console: deps.config.CONSOLE_PUBLIC_URL,
            }),
        },
        { provide: DASHBOARD_CLOCK, useValue: () => new Date() },
        SessionAuthenticator,
        DashboardAuthService,
        MerchantSessionGuard,
        OperatorSessionGuard,
        {
          provide: RateLimiter,
          useFactory: (registry: Registry) => new RateLimiter(deps.config, deps.logger, registry),
          inject: [METRICS_REGISTRY],
        },
      ],
    };
  }
}
