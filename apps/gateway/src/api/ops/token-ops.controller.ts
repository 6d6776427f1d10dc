import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { MerchantAdmin } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { MerchantId } from '../../kernel/http/path-params';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiMerchantIdParam, ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { IssueTokenDto, RotateWebhookSecretDto } from '../../kernel/dto/merchant-settings.dto';
import { TokenIssuedSchema, TokenListItemSchema, TokenRevokedSchema, WebhookSecretSchema } from './ops.schemas';
import { Audited } from '../../kernel/audit/audit.interceptor';

/** Default overlap of a rotated webhook secret, as the CLI's --grace-hours. */
const DEFAULT_GRACE_HOURS = 24;

/**
 * A merchant's credentials over HTTP (the CLI's `token ...` and `webhook secret ...`): API tokens
 * (only a hash is stored; a new token is answered once) and the webhook signing secret. The
 * console's merchant page uses the same handlers on /console/api (an operator's session; issuing,
 * revoking, revealing and rotating want a recent password). Revealing the secret is audited too.
 */
@ApiOps('Credentials')
@Controller()
@UseGuards(OperatorGuard)
export class TokenOpsController {
  constructor(private readonly admin: MerchantAdmin) {}

  @RequiresRecentAuth()
  @Post(['ops/merchants/:merchantId/tokens', 'console/api/merchants/:merchantId/tokens'])
  @Audited('token.create', ({ params }) => `merchant:${params.merchantId}`)
  @HttpCode(201)
  @ApiOperation({ operationId: 'issueToken', summary: 'Issue an API token (shown only now)' })
  @ApiMerchantIdParam()
  @ApiEnvelope(TokenIssuedSchema, { message: 'Token issued; it is shown only now', status: 201 })
  async issue(@MerchantId() merchantId: number, @Body() dto: IssueTokenDto) {
    const t = await this.admin.issueToken(merchantId, dto.label ?? '', dto.scopes);
    return new Reply('Token issued; it is shown only now', {
      id: t.id,
      merchantId,
      prefix: t.prefix,
      token: t.token,
      scopes: t.scopes,
    });
  }

  @Get(['ops/merchants/:merchantId/tokens', 'console/api/merchants/:merchantId/tokens'])
  @ApiOperation({ operationId: 'listTokens', summary: "The merchant's API tokens (never the tokens themselves)" })
  @ApiMerchantIdParam()
  @ApiEnvelope(TokenListItemSchema, { message: '1 token(s)', messagePattern: '^\\d+ token\\(s\\)$', isArray: true })
  async list(@MerchantId() merchantId: number) {
    const tokens = await this.admin.listTokens(merchantId);
    return new Reply(`${tokens.length} token(s)`, tokens);
  }

  /** Immediate (the gateway reads tokens live); revoking twice answers the first revocation. */
  @RequiresRecentAuth()
  @Delete(['ops/tokens/:tokenId', 'console/api/tokens/:tokenId'])
  @Audited('token.revoke', ({ params }) => `token:${params.tokenId}`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revokeToken',
    summary: 'Revoke an API token at once; revoking twice answers the first revocation',
  })
  @ApiParam({
    name: 'tokenId',
    schema: { type: 'string', format: 'uuid' },
    description: 'Anything that is not a token id answers 404 NOT_FOUND',
  })
  @ApiEnvelope(TokenRevokedSchema, { message: 'Token revoked' })
  async revoke(@Param('tokenId') tokenId: string) {
    const r = await this.admin.revokeToken(tokenId);
    return new Reply('Token revoked', { id: tokenId, merchantId: r.merchantId, revokedAt: r.revokedAt });
  }

  @RequiresRecentAuth()
  @Get(['ops/merchants/:merchantId/webhook-secret', 'console/api/merchants/:merchantId/webhook-secret'])
  @Audited('webhook-secret.reveal', ({ params }) => `merchant:${params.merchantId}`)
  @ApiOperation({ operationId: 'getWebhookSecret', summary: 'The webhook signing secret' })
  @ApiMerchantIdParam()
  @ApiEnvelope(WebhookSecretSchema, { message: 'Webhook secret found' })
  async showWebhookSecret(@MerchantId() merchantId: number) {
    const s = await this.admin.webhookSecret(merchantId);
    const previousSigning = s.previousExpiresAt !== null && s.previousExpiresAt > new Date();
    return new Reply('Webhook secret found', {
      merchantId,
      secret: s.secret,
      previousExpiresAt: previousSigning ? s.previousExpiresAt : null,
    });
  }

  /** A new secret; the old one also signs for graceHours (default 24, 0 = stop at once). */
  @RequiresRecentAuth()
  @Post(['ops/merchants/:merchantId/webhook-secret/rotate', 'console/api/merchants/:merchantId/webhook-secret/rotate'])
  @Audited('webhook-secret.rotate', ({ params }) => `merchant:${params.merchantId}`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new webhook secret; the old one also signs for graceHours (default 24, 0 = stop at once)',
  })
  @ApiMerchantIdParam()
  @ApiEnvelope(WebhookSecretSchema, { message: 'Webhook secret rotated' })
  async rotateWebhookSecret(@MerchantId() merchantId: number, @Body() dto: RotateWebhookSecretDto) {
    const r = await this.admin.rotateWebhookSecret(merchantId, dto.graceHours ?? DEFAULT_GRACE_HOURS);
    return new Reply('Webhook secret rotated', {
      merchantId,
      secret: r.secret,
      previousExpiresAt: r.previousExpiresAt,
    });
  }
}
