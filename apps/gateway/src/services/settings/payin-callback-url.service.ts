import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { MerchantAdmin, MerchantNotFoundError, type MerchantView, type PrismaClient } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, PRISMA } from '../../gateway.tokens';
import { assertNotifyUrlAllowed } from '../../kernel/http/notify-url.check';

/**
 * Sets or clears a merchant's default pay-in callback URL (ops API and merchant dashboard): the
 * same public-address check as a pay-in's notifyUrl, then MerchantAdmin. Unknown merchant: 404.
 */
@Injectable()
export class PayinCallbackUrlService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async set(merchantId: number, url: string | null): Promise<MerchantView> {
    if (url !== null) await assertNotifyUrlAllowed(url, this.config.WEBHOOK_ALLOW_LOOPBACK, 'url');
    try {
      return await new MerchantAdmin(this.prisma).setPayinCallbackUrl(merchantId, url);
    } catch (err) {
      if (err instanceof MerchantNotFoundError) throw new ApiError(ErrorCode.NotFound, err.message);
      throw err;
    }
  }
}
