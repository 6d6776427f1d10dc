import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { DASHBOARD_BUNDLES, registerDashboardBundle } from '../../kernel/static/dashboard-static';
import { ServicesModule } from '../../services/services.module';
import { ConsoleAuditLogController } from './console-audit-log.controller';
import { ConsoleMerchantSettingsController } from './console-merchant-settings.controller';
import { ConsoleMerchantUsersController } from './console-merchant-users.controller';
import { ConsoleMerchantsController } from './console-merchants.controller';
import { ConsoleSettlementsController } from './console-settlements.controller';
import { ConsoleWebhooksController } from './console-webhooks.controller';

/**
 * The operator console (decision 0023): its JSON API /console/api and its web bundle /console/,
 * on the internal port only (GATEWAY_INTERNAL_PORT). Sign-in and sessions are the session face's.
 * Its controllers answer in the console's own views (@pay/contracts/dashboard); the routes that
 * answer exactly as /ops does are served by the operators' controllers (ops.module.ts), so a
 * deployable with the console serves the ops face too. Thin over libs/backoffice.
 *
 * Request pipeline: every answer of /console/api says Cache-Control: no-store (an onSend hook);
 * the JSON body (64 KiB); OperatorSessionGuard (the pay_console_session cookie of an operator,
 * same-origin, X-CSRF-Token on changes; 401 SESSION_REQUIRED, 403 CSRF_TOKEN_INVALID; operators
 * have no rate limit); @RequiresRecentAuth changes want the password proved within 10 minutes
 * (401 REAUTH_REQUIRED); the ValidationPipe; every change writes the console's audit log
 * (@Audited, or in the change's own transaction); the envelopes.
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [
    ConsoleMerchantsController,
    ConsoleMerchantSettingsController,
    ConsoleSettlementsController,
    ConsoleWebhooksController,
    ConsoleAuditLogController,
    ConsoleMerchantUsersController,
  ],
})
export class ConsoleModule {}

export const CONSOLE_FACE: GatewayFace<GatewayConfig> = {
  name: 'console',
  module: ConsoleModule,
  mount: ({ fastify, config, logger }) =>
    registerDashboardBundle(fastify, config.dashboard.dir, DASHBOARD_BUNDLES.console, logger),
};
