import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { DASHBOARD_BUNDLES, registerDashboardBundle } from '../../kernel/static/dashboard-static';
import { ServicesModule } from '../../services/services.module';
import { DashboardActivityController } from './activity.controller';
import { DashboardDevelopersController } from './developers.controller';
import { DashboardOverviewController } from './overview.controller';
import { DashboardPayinsController } from './payins.controller';
import { DashboardPayoutApprovalsController } from './payout-approvals.controller';
import { DashboardPayoutBatchesController } from './payout-batches.controller';
import { DashboardPayoutsController } from './payouts.controller';
import { DashboardReconController } from './recon.controller';

/**
 * The merchant dashboard (decision 0023): its JSON API /dashboard/api and its web bundle
 * /dashboard/ on the public port (GATEWAY_PORT). Sign-in and sessions are the session face's.
 *
 * Request pipeline: every answer of /dashboard/api says Cache-Control: no-store (an onSend hook);
 * the JSON body (64 KiB); MerchantSessionGuard (the pay_dash_session cookie of a merchant user,
 * same-origin, X-CSRF-Token on changes; 401 SESSION_REQUIRED, 403 CSRF_TOKEN_INVALID), then the
 * route's rate-limit class charged to the user's merchant (the same budget as its API tokens);
 * @RequiresRecentAuth routes want the password proved within 10 minutes (401 REAUTH_REQUIRED);
 * the ValidationPipe; @Audited changes write the merchant's activity log; the envelopes.
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [
    DashboardOverviewController,
    DashboardPayinsController,
    DashboardPayoutBatchesController,
    DashboardPayoutApprovalsController,
    DashboardPayoutsController,
    DashboardReconController,
    DashboardDevelopersController,
    DashboardActivityController,
  ],
})
export class DashboardModule {}

export const DASHBOARD_FACE: GatewayFace<GatewayConfig> = {
  name: 'dashboard',
  module: DashboardModule,
  mount: ({ fastify, config, logger }) =>
    registerDashboardBundle(fastify, config.dashboard.dir, DASHBOARD_BUNDLES.merchant, logger),
};
