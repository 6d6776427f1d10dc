import type { Minor } from '@pay/domain';
import type { PrismaClient } from '../client/prisma';

/** A merchant row as operators change it (admin path, Prisma). */
export interface MerchantView {
  id: number;
  name: string;
  isActive: boolean;
  payinFeePctMilli: number;
  payinFeeFixed: Minor;
  payoutFeeFlat: Minor;
  ipAllowlistEnabled: boolean;
  ipAllowlist: string[];
  nmid: string;
  mcc: string;
  merchantCriteria: string;
  city: string;
  postalCode: string | null;
  settlementDelayDays: number;
  settlementHour: number;
  /** Own rate limits (read and write per second, export per minute); null: the gateway's default */
  rateLimitRead: number | null;
  rateLimitWrite: number | null;
  rateLimitExport: number | null;
  /** Where pay-in callbacks go when the pay-in has no notifyUrl; null: no callback */
  payinCallbackUrl: string | null;
}

/** What an update may change; an absent (undefined) field is left as it is. */
export type MerchantChange = Partial<Omit<MerchantView, 'id' | 'name'>> & {
  webhookSecret?: string;
  webhookSecretPrevious?: string | null;
  webhookSecretPreviousExpiresAt?: Date | null;
};

export interface MerchantWebhookSecrets {
  webhookSecret: string;
  webhookSecretPrevious: string | null;
  webhookSecretPreviousExpiresAt: Date | null;
}

/**
 * Merchants and their API tokens as operators change them (libs/backoffice's MerchantAdmin holds
 * the rules): one statement or one transaction a method. The money path reads merchants through
 * MerchantAuthRepository.
 */
export class MerchantRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The merchant and its balance row, in one transaction: the ledger locks that row for every command. */
  create(input: {
    name: string;
    payinFeePctMilli?: number;
    payinFeeFixed?: Minor;
    payoutFeeFlat?: Minor;
  }): Promise<MerchantView> {
    return this.prisma.$transaction(async (tx) => {
      const merchant = await tx.merchant.create({ data: input });
      await tx.balance.create({ data: { merchantId: merchant.id } });
      return merchant;
    });
  }

  find(merchantId: number): Promise<MerchantView | null> {
    return this.prisma.merchant.findUnique({ where: { id: merchantId } });
  }

  list(): Promise<MerchantView[]> {
    return this.prisma.merchant.findMany({ orderBy: { id: 'asc' } });
  }

  update(merchantId: number, change: MerchantChange): Promise<MerchantView> {
    return this.prisma.merchant.update({ where: { id: merchantId }, data: change });
  }

  webhookSecrets(merchantId: number): Promise<MerchantWebhookSecrets | null> {
    return this.prisma.merchant.findUnique({
      where: { id: merchantId },
      select: { webhookSecret: true, webhookSecretPrevious: true, webhookSecretPreviousExpiresAt: true },
    });
  }

  /** A token row (only its hash is stored); returns its id. */
  async insertToken(
    merchantId: number,
    token: { tokenHash: string; prefix: string; label: string; scopes?: string[] },
  ): Promise<string> {
    return (await this.prisma.apiToken.create({ data: { merchantId, ...token } })).id;
  }

  listTokens(merchantId: number) {
    return this.prisma.apiToken.findMany({
      where: { merchantId },
      orderBy: { createdAt: 'asc' },
      select: { id: true, prefix: true, label: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
  }

  findToken(tokenId: string): Promise<{ merchantId: number; revokedAt: Date | null } | null> {
    return this.prisma.apiToken.findUnique({ where: { id: tokenId }, select: { merchantId: true, revokedAt: true } });
  }

  async revokeToken(tokenId: string, at: Date): Promise<{ merchantId: number; revokedAt: Date }> {
    const row = await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: at } });
    return { merchantId: row.merchantId, revokedAt: row.revokedAt ?? at };
  }
}
