import { normaliseAllowlistEntry, type Minor } from '@pay/domain';
import { isNotifyUrl } from '@pay/platform';
import type { PrismaClient } from '../client/prisma';
import { randomBytes } from 'node:crypto';
import { generateToken } from './token';

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

export class MerchantNotFoundError extends Error {
  constructor(readonly merchantId: number) {
    super(`merchant ${merchantId} not found`);
  }
}

/** What operators do to merchants (admin CLI, local runner). Every method is one statement or one transaction. */
export class MerchantAdmin {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: { name: string; payinFeePctMilli?: number; payinFeeFixed?: Minor; payoutFeeFlat?: Minor }): Promise<MerchantView> {
    const name = input.name.trim();
    if (!name) throw new RangeError('merchant name must not be empty');
    return this.prisma.$transaction(async (tx) => {
      const merchant = await tx.merchant.create({
        data: {
          name,
          payinFeePctMilli: input.payinFeePctMilli,
          payinFeeFixed: input.payinFeeFixed,
          payoutFeeFlat: input.payoutFeeFlat,
        },
      });
      // The projection row exists from the start, so the ledger can lock it for every command.
      await tx.balance.create({ data: { merchantId: merchant.id } });
      return merchant;
    });
  }

  async get(merchantId: number): Promise<MerchantView> {
    const merchant = await this.prisma.merchant.findUnique({ where: { id: merchantId } });
    if (!merchant) throw new MerchantNotFoundError(merchantId);
    return merchant;
  }

  async list(): Promise<MerchantView[]> {
    return this.prisma.merchant.findMany({ orderBy: { id: 'asc' } });
  }

  /** Returns the token in clear text: the only time it is ever available. */
  async issueToken(merchantId: number, label = ''): Promise<{ id: string; token: string; prefix: string }> {
    await this.get(merchantId);
    const { token, hash, prefix } = generateToken();
    const row = await this.prisma.apiToken.create({ data: { merchantId, tokenHash: hash, prefix, label } });
    return { id: row.id, token, prefix };
  }

  async listTokens(merchantId: number) {
    return this.prisma.apiToken.findMany({
      where: { merchantId },
      orderBy: { createdAt: 'asc' },
      select: { id: true, prefix: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
  }

  /** Revoking is immediate: the gateway reads tokens live. Revoking twice is harmless. */
  async revokeToken(tokenId: string): Promise<{ merchantId: number; revokedAt: Date }> {
    const existing = await this.prisma.apiToken.findUnique({ where: { id: tokenId } });
    if (!existing) throw new RangeError(`token ${tokenId} not found`);
    if (existing.revokedAt) return { merchantId: existing.merchantId, revokedAt: existing.revokedAt };
    const row = await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
    return { merchantId: row.merchantId, revokedAt: row.revokedAt ?? new Date() };
  }

  async setFees(merchantId: number, fees: { payinFeePctMilli?: number; payinFeeFixed?: Minor; payoutFeeFlat?: Minor }): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: fees });
  }

  async setAllowlist(merchantId: number, entries: string[]): Promise<MerchantView> {
    const normalised = [...new Set(entries.map(normaliseAllowlistEntry))];
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { ipAllowlist: normalised } });
  }

  async setAllowlistEnabled(merchantId: number, enabled: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { ipAllowlistEnabled: enabled } });
  }

  /** QRIS identity printed into every code: NMID (from the acquirer), MCC, criteria, city, postal code. */
  async setQris(merchantId: number, qris: { nmid?: string; mcc?: string; merchantCriteria?: string; city?: string; postalCode?: string }): Promise<MerchantView> {
    if (qris.nmid !== undefined && !/^ID\d{10,13}$/.test(qris.nmid)) throw new RangeError('nmid must be ID followed by 10 to 13 digits');
    if (qris.mcc !== undefined && !/^\d{4}$/.test(qris.mcc)) throw new RangeError('mcc must be 4 digits');
    if (qris.merchantCriteria !== undefined && !['UMI', 'UKE', 'UME', 'UBE', 'URE'].includes(qris.merchantCriteria)) throw new RangeError('criteria must be UMI, UKE, UME, UBE or URE');
    if (qris.postalCode !== undefined && !/^\d{5}$/.test(qris.postalCode)) throw new RangeError('postal code must be 5 digits');
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: qris });
  }

  /** Settlement schedule: T+delayDays at hour:00 Asia/Jakarta. */
  async setSettlementSchedule(merchantId: number, schedule: { delayDays?: number; hour?: number }): Promise<MerchantView> {
    if (schedule.delayDays !== undefined && (!Number.isInteger(schedule.delayDays) || schedule.delayDays < 1 || schedule.delayDays > 30)) throw new RangeError('delay must be 1 to 30 days');
    if (schedule.hour !== undefined && (!Number.isInteger(schedule.hour) || schedule.hour < 0 || schedule.hour > 23)) throw new RangeError('hour must be 0 to 23');
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { settlementDelayDays: schedule.delayDays, settlementHour: schedule.hour } });
  }

  /**
   * The merchant's own rate limits per endpoint class: requests per second (read, write), new recon
   * exports per minute (export). null goes back to the gateway's default; undefined leaves a class as it is.
   */
  async setRateLimits(merchantId: number, limits: { read?: number | null; write?: number | null; export?: number | null }): Promise<MerchantView> {
    for (const [name, value] of Object.entries(limits)) {
      if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > 100_000)) throw new RangeError(`${name} limit must be a whole number from 1 to 100000`);
    }
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { rateLimitRead: limits.read, rateLimitWrite: limits.write, rateLimitExport: limits.export } });
  }

  /**
   * The merchant's default pay-in callback URL (a pay-in's own notifyUrl wins); null clears it.
   * The format is checked here; where it points is the caller's to check (and delivery's, again).
   */
  async setPayinCallbackUrl(merchantId: number, url: string | null): Promise<MerchantView> {
    if (url !== null && !isNotifyUrl(url)) throw new RangeError('callback URL must be an absolute http or https URL of at most 2048 characters');
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { payinCallbackUrl: url } });
  }

  async setActive(merchantId: number, active: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { isActive: active } });
  }

  async webhookSecret(merchantId: number): Promise<{ secret: string; previous: string | null; previousExpiresAt: Date | null }> {
    const m = await this.prisma.merchant.findUnique({
      where: { id: merchantId },
      select: { webhookSecret: true, webhookSecretPrevious: true, webhookSecretPreviousExpiresAt: true },
    });
    if (!m) throw new MerchantNotFoundError(merchantId);
    return { secret: m.webhookSecret, previous: m.webhookSecretPrevious, previousExpiresAt: m.webhookSecretPreviousExpiresAt };
  }

  /**
   * Issues a new webhook secret. The old one keeps signing (a second v1 signature) for
   * `graceHours`, so the merchant can switch without losing a callback; 0 retires it at once.
   */
  async rotateWebhookSecret(merchantId: number, graceHours: number): Promise<{ secret: string; previousExpiresAt: Date | null }> {
    const current = await this.webhookSecret(merchantId);
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    const previousExpiresAt = graceHours > 0 ? new Date(Date.now() + graceHours * 3_600_000) : null;
    await this.prisma.merchant.update({
      where: { id: merchantId },
      data: { webhookSecret: secret, webhookSecretPrevious: graceHours > 0 ? current.secret : null, webhookSecretPreviousExpiresAt: previousExpiresAt },
    });
    return { secret, previousExpiresAt };
  }
}
