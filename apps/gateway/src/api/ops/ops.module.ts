import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { ServicesModule } from '../../services/services.module';
import { AdjustmentOpsController } from './adjustment-ops.controller';
import { mountBullBoard } from './bull-board';
import { BooksExportOpsController } from './books-export-ops.controller';
import { CallbackOpsController } from './callback-ops.controller';
import { DashboardUserOpsController } from './dashboard-user-ops.controller';
import { DeadLetterOpsController } from './dead-letter-ops.controller';
import { DisbursementOpsController } from './disbursement-ops.controller';
import { LedgerOpsController } from './ledger-ops.controller';
import { MerchantOpsController } from './merchant-ops.controller';
import { MerchantSettingsOpsController } from './merchant-settings-ops.controller';
import { PayoutApprovalOpsController } from './payout-approval-ops.controller';
import { ReconOpsController } from './recon-ops.controller';
import { TokenOpsController } from './token-ops.controller';
import { WebhookOpsController } from './webhook-ops.controller';

/**
 * The operators' API: /ops on the internal port only (GATEWAY_INTERNAL_PORT), documented in
 * docs/ops-openapi.json, and Bull Board at /ops/queues. Without ADMIN_TOKEN, none of it exists.
 * Thin over libs/backoffice, as the console and the admin CLI are.
 *
 * Request pipeline: the JSON body (64 KiB); OperatorGuard, which on /ops is the admin token
 * (`Authorization: Bearer <ADMIN_TOKEN>`, or a token of ADMIN_TOKEN_PREVIOUS; 404 without
 * ADMIN_TOKEN, 401 otherwise); the ValidationPipe; the success or error envelope (a back-office
 * refusal mapped by the envelope filter). No rate limit, no audit log, no re-authentication.
 * Bull Board's pages: basic auth (admin / an admin token), outside Nest.
 *
 * The same controllers serve the console's routes that do exactly what an /ops route does
 * (merchant create, settlement run, dead-letter list and replay, webhook resend, payout reversal,
 * users list, disable and enable, adjustments, reconciliation): on /console/api, OperatorGuard wants an operator's session, and the
 * console's pipeline applies (see console.module.ts).
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [
    WebhookOpsController,
    CallbackOpsController,
    MerchantOpsController,
    MerchantSettingsOpsController,
    TokenOpsController,
    DeadLetterOpsController,
    DisbursementOpsController,
    LedgerOpsController,
    BooksExportOpsController,
    DashboardUserOpsController,
    AdjustmentOpsController,
    ReconOpsController,
    PayoutApprovalOpsController,
  ],
})
export class OpsModule {}

export const OPS_FACE: GatewayFace<GatewayConfig> = {
  name: 'ops',
  module: OpsModule,
  mount: async ({ fastify, config, redis, logger }) => {
    const { adminToken, previousAdminTokens } = config.opsApi;
    if (!adminToken) return;
    return mountBullBoard(fastify, [adminToken, ...previousAdminTokens], {
      connection: redis,
      prefix: config.queues.prefix,
      logger,
    });
  },
};
