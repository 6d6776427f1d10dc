import { Module, type Provider } from '@nestjs/common';
import {
  BooksExports,
  DashboardUserAdmin,
  DeadLetterActions,
  MerchantAdmin,
  PayoutReversals,
  BookAdjustments,
  SettlementRequests,
  WebhookActions,
} from '@pay/backoffice';
import { type PgListener, type PrismaClient, ReconExportRepository } from '@pay/persistence';
import type { Logger, ObjectStore, ReconExportProducer } from '@pay/platform';
import { ReconciliationDesk } from '@pay/reconciliation';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from '../gateway.config';
import {
  GATEWAY_CONFIG,
  LOGGER,
  METRICS_REGISTRY,
  OBJECT_STORE,
  PG_LISTENER,
  PG_POOL,
  PRISMA,
  RECON_PRODUCER,
} from '../gateway.tokens';
import { KernelModule } from '../kernel/kernel.module';
import { AccountInquiryService } from './disbursement/account-inquiry.service';
import { BatchPayoutService } from './disbursement/batch-payout.service';
import { DecisionWaiter } from './disbursement/decision-waiter';
import { PayoutApprovalService } from './disbursement/payout-approval.service';
import { TransferService } from './disbursement/transfer.service';
import { AcquirerService } from './payin/acquirer.service';
import { PayinRefundService } from './payin/payin-refund.service';
import { QrisService } from './payin/qris.service';
import { SandboxPayService } from './payin/sandbox-pay.service';
import { SnapNotificationService } from './payin/snap-notification.service';
import { ReconExportService } from './recon/recon-export.service';
import { CredentialsService } from './session/credentials.service';
import { PasswordHasher } from './session/password-hasher';
import { SignInThrottle } from './session/sign-in-throttle';
import { SignInService } from './session/sign-in.service';

const PROVIDERS: Provider[] = [
  QrisService,
  SandboxPayService,
  AcquirerService,
  SnapNotificationService,
  PayinRefundService,
  AccountInquiryService,
  TransferService,
  BatchPayoutService,
  PayoutApprovalService,
  { provide: DecisionWaiter, useFactory: (notices: PgListener) => new DecisionWaiter(notices), inject: [PG_LISTENER] },
  ReconExportService,
  {
    provide: PasswordHasher,
    useFactory: (config: GatewayConfig, registry: Registry) => new PasswordHasher(config.signIn.hashing, registry),
    inject: [GATEWAY_CONFIG, METRICS_REGISTRY],
  },
  {
    provide: SignInThrottle,
    useFactory: (config: GatewayConfig, logger: Logger, registry: Registry) =>
      new SignInThrottle(config, logger, registry),
    inject: [GATEWAY_CONFIG, LOGGER, METRICS_REGISTRY],
  },
  SignInService,
  CredentialsService,
];

/** The back office's use cases (libs/backoffice), which the ops API, the console and the dashboard share with the admin CLI. */
const BACKOFFICE: Provider[] = [
  {
    provide: MerchantAdmin,
    useFactory: (prisma: PrismaClient, config: GatewayConfig) => new MerchantAdmin(prisma, config.webhooks),
    inject: [PRISMA, GATEWAY_CONFIG],
  },
  {
    provide: DashboardUserAdmin,
    useFactory: (pool: Pool, config: GatewayConfig) => new DashboardUserAdmin(pool, config.dashboard.links),
    inject: [PG_POOL, GATEWAY_CONFIG],
  },
  {
    provide: SettlementRequests,
    useFactory: (prisma: PrismaClient) => new SettlementRequests(prisma),
    inject: [PRISMA],
  },
  {
    provide: BooksExports,
    useFactory: (exports: ReconExportRepository, store: ObjectStore, producer: ReconExportProducer) =>
      new BooksExports(exports, store, producer),
    inject: [ReconExportRepository, OBJECT_STORE, RECON_PRODUCER],
  },
  { provide: DeadLetterActions, useFactory: (pool: Pool) => new DeadLetterActions(pool), inject: [PG_POOL] },
  { provide: WebhookActions, useFactory: (pool: Pool) => new WebhookActions(pool), inject: [PG_POOL] },
  { provide: PayoutReversals, useFactory: (pool: Pool) => new PayoutReversals(pool), inject: [PG_POOL] },
  { provide: BookAdjustments, useFactory: (pool: Pool) => new BookAdjustments(pool), inject: [PG_POOL] },
  { provide: ReconciliationDesk, useFactory: (pool: Pool) => new ReconciliationDesk(pool), inject: [PG_POOL] },
];

/**
 * The application services the faces share: each takes a plain command object (never an HTTP
 * DTO) and answers with domain values or an ApiError (a BackofficeError for the back office's);
 * the faces map DTOs in and present answers.
 */
@Module({
  imports: [KernelModule],
  providers: [...PROVIDERS, ...BACKOFFICE],
  exports: [...PROVIDERS, ...BACKOFFICE].map((p) => ('provide' in p ? p.provide : p)),
})
export class ServicesModule {}
