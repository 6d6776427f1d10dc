import { Module } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { MerchantAuthRepository } from '@pay/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { MerchantAuthCache } from '../../kernel/auth/merchant/merchant-auth.cache';
import { registerLocalRefusal } from '../../kernel/auth/merchant/local-refusal';
import { registerMerchantTokenCheck } from '../../kernel/auth/merchant/merchant-token';
import { registerReadConcurrencyLimit } from '../../kernel/auth/merchant/read-concurrency';
import { RecentTokens } from '../../kernel/auth/merchant/recent-tokens';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { RateLimiter } from '../../kernel/rate-limit/rate-limiter';
import { ServicesModule } from '../../services/services.module';
import { BalanceController } from './balance.controller';
import { DisbursementBatchController } from './disbursement-batch.controller';
import { DisbursementController } from './disbursement.controller';
import { EventLogController, MerchantDeliveriesController } from './events.controller';
import { BanksController } from './banks.controller';
import { BalanceMovementsController, DisbursementListController, PayinListController } from './history.controllers';
import { registerApiReference } from './openapi/api-reference';
import { buildMerchantDocument } from './openapi/merchant-document';
import { PayinController } from './payin.controller';
import { PayinRefundController } from './payin-refund.controller';
import { ReconController } from './recon.controller';
import { SandboxClockController } from './sandbox-clock.controller';

/**
 * The merchant API: /api/v1 on the public port (GATEWAY_PORT), documented in docs/openapi.json
 * (served at /docs in Swagger UI and at /docs/reference in Redoc when SWAGGER_ENABLED).
 *
 * Request pipeline: onRequest hooks: a merchant at its limit whose token authenticated a moment
 * ago is refused at once (registerLocalRefusal), a merchant's reads in flight are capped
 * (RATE_LIMIT_READ_CONCURRENCY), and the `token` header is checked before the body is read
 * (registerMerchantTokenCheck; MerchantAuthCache for @TokenCheckedByStatement routes); then the
 * JSON body (64 KiB); MerchantAuthGuard (token, active merchant, IP allowlist) and the route's
 * rate-limit class (@RateLimit read/write/export, RateLimiter.charge); the ValidationPipe; the
 * success envelope (a Fastify hook) or the error envelope (EnvelopeExceptionFilter). No audit log,
 * no re-authentication: the token is the credential.
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [
    BalanceController,
    BanksController,
    PayinController,
    PayinRefundController,
    ReconController,
    DisbursementController,
    DisbursementBatchController,
    BalanceMovementsController,
    PayinListController,
    DisbursementListController,
    EventLogController,
    MerchantDeliveriesController,
    SandboxClockController,
  ],
})
export class MerchantModule {}

export const MERCHANT_FACE: GatewayFace<GatewayConfig> = {
  name: 'merchant',
  module: MerchantModule,
  hooks: ({ app, fastify, config, notices }) => {
    const tokens = app.get(MerchantAuthRepository);
    const limiter = app.get(RateLimiter);
    // A merchant Redis has just refused is refused again before its token costs a database lookup.
    const recentTokens = new RecentTokens();
    registerLocalRefusal(fastify, recentTokens, limiter);
    // One merchant's reads in flight are capped, so its burst cannot hold every database connection.
    if (config.rateLimits.enabled) {
      registerReadConcurrencyLimit(fastify, {
        limit: config.rateLimits.readConcurrency,
        recent: recentTokens,
        tokens,
        limiter,
      });
    }
    // Tokens that authenticated a moment ago let requests into the routes whose statement checks the token again.
    const authCache = new MerchantAuthCache(notices, config.auth.cacheMs);
    registerMerchantTokenCheck(fastify, tokens, recentTokens, authCache);
  },
  mount: async ({ app, fastify, config, logger }) => {
    if (!config.docs.enabled) return;
    // The same document as docs/openapi.json (npm run openapi:export), in Swagger UI and in Redoc.
    SwaggerModule.setup('docs', app, buildMerchantDocument(app), { jsonDocumentUrl: 'docs/openapi.json' });
    registerApiReference(fastify, config.docs.referenceFile, logger);
  },
};
