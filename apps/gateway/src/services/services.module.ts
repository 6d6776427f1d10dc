import { Module, type Provider } from '@nestjs/common';
import { DashboardUserAdmin, type PgListener } from '@pay/persistence';
import type { Pool } from 'pg';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, PG_LISTENER, PG_POOL } from '../gateway.tokens';
import { KernelModule } from '../kernel/kernel.module';
import { AccountInquiryService } from './disbursement/account-inquiry.service';
import { DecisionWaiter } from './disbursement/decision-waiter';
import { TransferService } from './disbursement/transfer.service';
import { AcquirerService } from './payin/acquirer.service';
import { QrisService } from './payin/qris.service';
import { SandboxPayService } from './payin/sandbox-pay.service';
import { ReconExportService } from './recon/recon-export.service';
import { DashboardAuthService } from './session/dashboard-auth.service';
import { PayinCallbackUrlService } from './settings/payin-callback-url.service';

const PROVIDERS: Provider[] = [
  QrisService,
  SandboxPayService,
  AcquirerService,
  AccountInquiryService,
  TransferService,
  { provide: DecisionWaiter, useFactory: (notices: PgListener) => new DecisionWaiter(notices), inject: [PG_LISTENER] },
  ReconExportService,
  PayinCallbackUrlService,
  DashboardAuthService,
  {
    provide: DashboardUserAdmin,
    useFactory: (pool: Pool, config: GatewayConfig) =>
      new DashboardUserAdmin(pool, { dashboard: config.DASHBOARD_PUBLIC_URL, console: config.CONSOLE_PUBLIC_URL }),
    inject: [PG_POOL, GATEWAY_CONFIG],
  },
];

/**
 * The application services the faces share: each takes a plain command object (never an HTTP
 * DTO) and answers with domain values or an ApiError; the faces map DTOs in and present answers.
 */
@Module({
  imports: [KernelModule],
  providers: PROVIDERS,
  exports: PROVIDERS.map((p) => ('provide' in p ? p.provide : p)),
})
export class ServicesModule {}
