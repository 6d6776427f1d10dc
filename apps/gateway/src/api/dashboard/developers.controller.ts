import { API_SCOPES } from '@pay/domain';
import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type {
  AllowlistView,
  CallbackResendView,
  CallbackUrlView,
  DevelopersView,
  RecentDeliveriesView,
  TokenIssuedView,
  TokenRevokedView,
  WebhookSecretRotatedView,
  TestCallbackView,
  WebhookSecretView,
} from '@pay/contracts/dashboard';
import { DeliveryHistoryRepository, MerchantEventRepository, WebhookDeliveryRepository } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { ApiError, currentLogId, Reply } from '@pay/platform';
import { ErrorCode } from '@pay/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AllowlistDto, IssueTokenDto, RotateWebhookSecretDto } from '../../kernel/dto/merchant-settings.dto';
import { PayinCallbackUrlDto } from '../../kernel/dto/payin-callback-url.dto';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { presentRecentDelivery } from './dashboard.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { assertNotifyUrlAllowed } from '../../kernel/http/notify-url.check';
import { resendOwnDelivery } from '../../services/webhooks/resend-own-delivery';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';

/** The event type of a test callback (the Developers page's "Send a test callback"). */
const TEST_CALLBACK_TYPE = 'callback.test';

/** Default overlap of a rotated webhook secret, as the CLI's and the ops API's. */
const DEFAULT_GRACE_HOURS = 24;

class DeliveriesQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/**
 * The merchant's integration settings: API tokens, the webhook secret, the default pay-in callback
 * URL, the IP allowlist of its API tokens, and recent callback deliveries. The same MerchantAdmin
 * methods as the ops API, so the same rules; MerchantAdmin's refusals answer as there (404, 400).
 */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardDevelopersController {
  constructor(
    private readonly admin: MerchantAdmin,
    private readonly deliveries: DeliveryHistoryRepository,
    private readonly webhookDeliveries: WebhookDeliveryRepository,
    private readonly events: MerchantEventRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @RateLimit('read')
  @Get('developers')
  @RoleReach('any')
  async show(@SessionMerchantId() merchantId: number): Promise<Reply<DevelopersView>> {
    const [merchant, tokens] = await Promise.all([this.admin.get(merchantId), this.admin.listTokens(merchantId)]);
    return new Reply('Developer settings', {
      tokens: tokens.map((t) => ({
        id: t.id,
        label: t.label,
        prefix: t.prefix,
        createdAt: t.createdAt.toISOString(),
        lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        revokedAt: t.revokedAt?.toISOString() ?? null,
        scopes: t.scopes,
      })),
      payinCallbackUrl: merchant.payinCallbackUrl,
      allowlist: { enabled: merchant.ipAllowlistEnabled, entries: merchant.ipAllowlist },
      availableScopes: [...API_SCOPES],
    });
  }

  @RateLimit('write')
  @RequiresRecentAuth()
  @Post('tokens')
  @RoleReach('tokens:manage')
  @Audited('token.create', ({ data }) => `token:${String(data.id)}`)
  @HttpCode(201)
  async issueToken(
    @SessionMerchantId() merchantId: number,
    @Body() dto: IssueTokenDto,
  ): Promise<Reply<TokenIssuedView>> {
    const t = await this.admin.issueToken(merchantId, dto.label ?? '', dto.scopes);
    return new Reply('Token issued; it is shown only now', {
      id: t.id,
      label: dto.label ?? '',
      prefix: t.prefix,
      token: t.token,
      scopes: t.scopes,
    });
  }

  /** Only the merchant's own: another merchant's token id is not found, like an unknown one. */
  @RateLimit('write')
  @RequiresRecentAuth()
  @Delete('tokens/:id')
  @RoleReach('tokens:manage')
  @Audited('token.revoke', ({ params }) => `token:${params.id}`)
  @HttpCode(200)
  async revokeToken(
    @SessionMerchantId() merchantId: number,
    @Param('id') id: string,
  ): Promise<Reply<TokenRevokedView>> {
    const r = await this.admin.revokeToken(id, merchantId);
    return new Reply('Token revoked', { id, revokedAt: r.revokedAt.toISOString() });
  }

  /**
   * The current secret, for the merchant's server. A read, but of a credential: the password must
   * have been proved within the step-up window (the dashboard asks for it), and it is audited.
   */
  @RateLimit('write')
  @RequiresRecentAuth()
  @Post('webhook-secret/reveal')
  @RoleReach('webhooks:manage')
  @Audited('webhook-secret.reveal', () => 'webhook-secret')
  @HttpCode(200)
  async revealWebhookSecret(@SessionMerchantId() merchantId: number): Promise<Reply<WebhookSecretView>> {
    const s = await this.admin.webhookSecret(merchantId);
    const previousLive = s.previous && s.previousExpiresAt && s.previousExpiresAt > new Date();
    return new Reply('Webhook secret', {
      secret: s.secret,
      previousExpiresAt: previousLive ? (s.previousExpiresAt?.toISOString() ?? null) : null,
    });
  }

  /** A new secret; the old one also signs for graceHours (default 24, 0 = stop at once). */
  @RateLimit('write')
  @RequiresRecentAuth()
  @Post('webhook-secret/rotate')
  @RoleReach('webhooks:manage')
  @Audited('webhook-secret.rotate', () => 'webhook-secret')
  @HttpCode(200)
  async rotateWebhookSecret(
    @SessionMerchantId() merchantId: number,
    @Body() dto: RotateWebhookSecretDto,
  ): Promise<Reply<WebhookSecretRotatedView>> {
    const r = await this.admin.rotateWebhookSecret(merchantId, dto.graceHours ?? DEFAULT_GRACE_HOURS);
    return new Reply('Webhook secret rotated; it is shown only now', {
      secret: r.secret,
      previousExpiresAt: r.previousExpiresAt?.toISOString() ?? null,
    });
  }

  @RateLimit('write')
  @RequiresRecentAuth()
  @Put('callback-url')
  @RoleReach('webhooks:manage')
  @Audited('callback-url.set', () => 'callback-url')
  @HttpCode(200)
  async setCallbackUrl(
    @SessionMerchantId() merchantId: number,
    @Body() dto: PayinCallbackUrlDto,
  ): Promise<Reply<CallbackUrlView>> {
    const m = await this.admin.setCallbackUrl(merchantId, dto.url);
    return new Reply(m.payinCallbackUrl ? 'Pay-in callback URL set' : 'Pay-in callback URL cleared', {
      payinCallbackUrl: m.payinCallbackUrl,
    });
  }

  /** Replaces the list; `enabled` (optional) switches enforcement in the same update. */
  @RateLimit('write')
  @RequiresRecentAuth()
  @Put('allowlist')
  @RoleReach('settings:manage')
  @Audited('allowlist.set', () => 'allowlist')
  @HttpCode(200)
  async setAllowlist(
    @SessionMerchantId() merchantId: number,
    @Body() dto: AllowlistDto,
  ): Promise<Reply<AllowlistView>> {
    const m = await this.admin.setAllowlist(merchantId, dto.entries, dto.enabled);
    const message =
      m.ipAllowlistEnabled && m.ipAllowlist.length === 0
        ? 'Allowlist set; it is enabled and empty, so every API request with your tokens is refused'
        : 'Allowlist set';
    return new Reply(message, { enabled: m.ipAllowlistEnabled, entries: m.ipAllowlist });
  }

  /**
   * A test callback to the merchant's callback URL: a `callback.test` event, signed and delivered
   * (and retried) as any callback, listed with the recent deliveries. So a merchant can check its
   * endpoint and its signature check before real money arrives.
   */
  @RateLimit('write')
  @Post('callback-test')
  @RoleReach('webhooks:manage')
  @Audited('callback.test', ({ data }) => `webhook-delivery:${String(data.deliveryId)}`)
  @HttpCode(200)
  async sendTestCallback(@SessionMerchantId() merchantId: number): Promise<Reply<TestCallbackView>> {
    const merchant = await this.admin.get(merchantId);
    const url = merchant.payinCallbackUrl;
    if (!url) {
      const message = 'set your callback URL first: the test callback goes there';
      throw new ApiError(ErrorCode.ValidationError, `url: ${message}`, [{ field: 'url', message }]);
    }
    await assertNotifyUrlAllowed(url, this.config.webhooks, 'url');
    const now = new Date();
    const eventId = `test.${randomUUID()}`;
    const delivery = await this.webhookDeliveries.create(
      {
        eventId,
        eventType: TEST_CALLBACK_TYPE,
        merchantId,
        disbursementId: null,
        payinId: null,
        url,
        body: JSON.stringify({
          id: eventId,
          type: TEST_CALLBACK_TYPE,
          createdAt: now.toISOString(),
          data: {
            idMerchant: merchantId,
            merchantName: merchant.name,
            message: 'A test callback: verify its X-Callback-Signature as any other, and answer 2xx',
          },
        }),
        logId: currentLogId(),
      },
      now,
    );
    return new Reply('Test callback queued', { deliveryId: delivery.id, eventId, url });
  }

  @RateLimit('read')
  @Get('deliveries')
  @RoleReach('any')
  async recentDeliveries(
    @SessionMerchantId() merchantId: number,
    @Query() q: DeliveriesQuery,
  ): Promise<Reply<RecentDeliveriesView>> {
    const rows = await this.deliveries.recent(merchantId, q.limit ?? 50);
    return new Reply('Query success', { items: rows.map(presentRecentDelivery) });
  }

  /** One of its deliveries sent again (same event id and body): as POST /api/v1/webhooks/deliveries/{id}/resend. */
  @RateLimit('write')
  @Post('deliveries/:deliveryId/resend')
  @RoleReach('webhooks:manage')
  @Audited('webhook-delivery.resend', ({ params }) => `webhook-delivery:${params.deliveryId}`)
  @HttpCode(200)
  async resendDelivery(
    @SessionMerchantId() merchantId: number,
    @Param('deliveryId') deliveryId: string,
  ): Promise<Reply<CallbackResendView>> {
    const { message, delivery } = await resendOwnDelivery(this.events, this.webhookDeliveries, merchantId, deliveryId);
    return new Reply(message, { deliveryId: delivery.id, eventId: delivery.eventId, status: delivery.status });
  }
}
