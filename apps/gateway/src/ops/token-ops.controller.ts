import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MerchantAdmin, type PrismaClient } from '@pay/persistence';
import { Reply } from '@pay/platform';
import { PRISMA } from '../gateway.tokens';
import { AdminErrorsInterceptor, MerchantId } from './admin-errors';
import { AdminTokenGuard } from './admin-auth';
import { IssueTokenDto, RotateWebhookSecretDto } from './dto/merchant-settings.dto';

/** Default overlap of a rotated webhook secret, as the CLI's --grace-hours. */
const DEFAULT_GRACE_HOURS = 24;

/**
 * A merchant's credentials over HTTP (the CLI's `token ...` and `webhook secret ...`): API tokens
 * (only a hash is stored; a new token is answered once) and the webhook signing secret.
 */
@ApiExcludeController()
@Controller('ops')
@UseGuards(AdminTokenGuard)
@UseInterceptors(AdminErrorsInterceptor)
export class TokenOpsController {
  private readonly admin: MerchantAdmin;

  constructor(@Inject(PRISMA) prisma: PrismaClient) {
    this.admin = new MerchantAdmin(prisma);
  }

  @Post('merchants/:merchantId/tokens')
  @HttpCode(201)
  async issue(@MerchantId() merchantId: number, @Body() dto: IssueTokenDto) {
    const t = await this.admin.issueToken(merchantId, dto.label ?? '');
    return new Reply('Token issued; it is shown only now', { id: t.id, merchantId, prefix: t.prefix, token: t.token });
  }

  @Get('merchants/:merchantId/tokens')
  async list(@MerchantId() merchantId: number) {
    const tokens = await this.admin.listTokens(merchantId);
    return new Reply(`${tokens.length} token(s)`, tokens);
  }

  /** Immediate (the gateway reads tokens live); revoking twice answers the first revocation. */
  @Delete('tokens/:tokenId')
  @HttpCode(200)
  async revoke(@Param('tokenId') tokenId: string) {
    const r = await this.admin.revokeToken(tokenId);
    return new Reply('Token revoked', { id: tokenId, merchantId: r.merchantId, revokedAt: r.revokedAt });
  }

  @Get('merchants/:merchantId/webhook-secret')
  async showWebhookSecret(@MerchantId() merchantId: number) {
    const s = await this.admin.webhookSecret(merchantId);
    const previousSigning = s.previousExpiresAt !== null && s.previousExpiresAt > new Date();
    return new Reply('Webhook secret found', { merchantId, secret: s.secret, previousExpiresAt: previousSigning ? s.previousExpiresAt : null });
  }

  /** A new secret; the old one also signs for graceHours (default 24, 0 = stop at once). */
  @Post('merchants/:merchantId/webhook-secret/rotate')
  @HttpCode(200)
  async rotateWebhookSecret(@MerchantId() merchantId: number, @Body() dto: RotateWebhookSecretDto) {
    const r = await this.admin.rotateWebhookSecret(merchantId, dto.graceHours ?? DEFAULT_GRACE_HOURS);
    return new Reply('Webhook secret rotated', { merchantId, secret: r.secret, previousExpiresAt: r.previousExpiresAt });
  }
}
