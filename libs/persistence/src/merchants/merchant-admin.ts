import { normaliseAllowlistEntry, type Minor } from '@pay/domain';
import { isNotifyUrl } from '@pay/platform';
import type { PrismaClient } from '../client/prisma';
import { randomBytes } from 'node:crypto';
import { generateToken } from './token';
import { type FeeInput, MerchantInputError, parseFeeInput, TokenNotFoundError } from './merchant-input';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class MerchantNotFoundError extends Error {
  constructor(readonly merchantId: number) {
    super(`merchant ${merchantId} not found`);
  }
}

/**
 * What operators do to merchants (admin CLI, ops API, local runner). Every method is one statement
 * or one transaction. Unknown merchant: MerchantNotFoundError; unknown token: TokenNotFoundError;
 * bad input: MerchantInputError naming the field.
 */
export class MerchantAdmin {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: {
    name: string;
    payinFeePctMilli?: number;
    payinFeeFixed?: Minor;
    payoutFeeFlat?: Minor;
  }): Promise<MerchantView> {
    const name = input.name.trim();
    if (!name) throw new MerchantInputError('name', 'name must not be empty');
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
    await this.get(merchantId);
    return this.prisma.apiToken.findMany({
      where: { merchantId },
      orderBy: { createdAt: 'asc' },
      select: { id: true, prefix: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
  }

  /**
   * Revoking is immediate: the gateway reads tokens live. Revoking twice is harmless. With
   * `ofMerchant` (the merchant's own dashboard), a token of another merchant is not found.
   */
  async revokeToken(tokenId: string, ofMerchant?: number): Promise<{ merchantId: number; revokedAt: Date }> {
    // Token ids are UUIDs: anything else cannot name one (and would be a type error in the query).
    if (!UUID.test(tokenId)) throw new TokenNotFoundError(tokenId);
    const existing = await this.prisma.apiToken.findUnique({ where: { id: tokenId } });
    if (!existing || (ofMerchant !== undefined && existing.merchantId !== ofMerchant))
      throw new TokenNotFoundError(tokenId);
    if (existing.revokedAt) return { merchantId: existing.merchantId, revokedAt: existing.revokedAt };
    const row = await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
    return { merchantId: row.merchantId, revokedAt: row.revokedAt ?? new Date() };
  }

  async setFees(
    merchantId: number,
    fees: { payinFeePctMilli?: number; payinFeeFixed?: Minor; payoutFeeFlat?: Minor },
  ): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: fees });
  }

  /** Fees as operators write them (percentage, Rupiah): see parseFeeInput. */
  async setFeesFromInput(merchantId: number, input: FeeInput): Promise<MerchantView> {
    return this.setFees(merchantId, parseFeeInput(input));
  }

  /** Replaces the list (addresses or CIDR ranges, normalised); `enabled`, when given, switches enforcement in the same statement. */
  async setAllowlist(merchantId: number, entries: string[], enabled?: boolean): Promise<MerchantView> {
    const normalised = [
      ...new Set(
        entries.map((entry) => {
          try {
            return normaliseAllowlistEntry(entry);
          } catch (err) {
            throw new MerchantInputError('entries', `entries: ${(err as Error).message}`);
          }
        }),
      ),
    ];
    await this.get(merchantId);
    return this.prisma.merchant.update({
      where: { id: merchantId },
      data: { ipAllowlist: normalised, ipAllowlistEnabled: enabled },
    });
  }

  /** An empty list, not enforced: the merchant is reachable from anywhere again. */
  async clearAllowlist(merchantId: number): Promise<MerchantView> {
    return this.setAllowlist(merchantId, [], false);
  }

  async setAllowlistEnabled(merchantId: number, enabled: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { ipAllowlistEnabled: enabled } });
  }

  /** QRIS identity printed into every code: NMID (from the acquirer), MCC, criteria, city, postal code. */
  async setQris(
    merchantId: number,
    qris: { nmid?: string; mcc?: string; merchantCriteria?: string; city?: string; postalCode?: string },
  ): Promise<MerchantView> {
    if (Object.values(qris).every((v) => v === undefined))
      throw new MerchantInputError('nmid', 'give at least one of nmid, mcc, merchantCriteria, city, postalCode');
    if (qris.nmid !== undefined && !/^ID\d{10,13}$/.test(qris.nmid))
      throw new MerchantInputError('nmid', 'nmid must be ID followed by 10 to 13 digits');
    if (qris.mcc !== undefined && !/^\d{4}$/.test(qris.mcc))
      throw new MerchantInputError('mcc', 'mcc must be 4 digits');
    if (qris.merchantCriteria !== undefined && !['UMI', 'UKE', 'UME', 'UBE', 'URE'].includes(qris.merchantCriteria))
      throw new MerchantInputError('merchantCriteria', 'merchantCriteria must be UMI, UKE, UME, UBE or URE');
    if (qris.city !== undefined && (qris.city.trim() === '' || qris.city.length > 100))
      throw new MerchantInputError('city', 'city must be 1 to 100 characters');
    if (qris.postalCode !== undefined && !/^\d{5}$/.test(qris.postalCode))
      throw new MerchantInputError('postalCode', 'postalCode must be 5 digits');
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: qris });
  }

  /** Settlement schedule: T+delayDays at hour:00 Asia/Jakarta. */
  async setSettlementSchedule(
    merchantId: number,
    schedule: { delayDays?: number; hour?: number },
  ): Promise<MerchantView> {
    if (schedule.delayDays === undefined && schedule.hour === undefined)
      throw new MerchantInputError('delayDays', 'give at least one of delayDays, hour');
    if (
      schedule.delayDays !== undefined &&
      (!Number.isInteger(schedule.delayDays) || schedule.delayDays < 1 || schedule.delayDays > 30)
    )
      throw new MerchantInputError('delayDays', 'delayDays must be a whole number of days from 1 to 30');
    if (schedule.hour !== undefined && (!Number.isInteger(schedule.hour) || schedule.hour < 0 || schedule.hour > 23))
      throw new MerchantInputError('hour', 'hour must be a whole hour from 0 to 23');
    await this.get(merchantId);
    return this.prisma.merchant.update({
      where: { id: merchantId },
      data: { settlementDelayDays: schedule.delayDays, settlementHour: schedule.hour },
    });
  }

  /**
   * The merchant's own rate limits per endpoint class: requests per second (read, write), new recon
   * exports per minute (export). null goes back to the gateway's default; undefined leaves a class as it is.
   */
  async setRateLimits(
    merchantId: number,
    limits: { read?: number | null; write?: number | null; export?: number | null },
  ): Promise<MerchantView> {
    if (limits.read === undefined && limits.write === undefined && limits.export === undefined)
      throw new MerchantInputError('read', 'give at least one of read, write, export');
    for (const [name, value] of Object.entries(limits)) {
      if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > 100_000))
        throw new MerchantInputError(name, `${name} limit must be a whole number from 1 to 100000`);
    }
    await this.get(merchantId);
    return this.prisma.merchant.update({
      where: { id: merchantId },
      data: { rateLimitRead: limits.read, rateLimitWrite: limits.write, rateLimitExport: limits.export },
    });
  }

  /**
   * The merchant's default pay-in callback URL (a pay-in's own notifyUrl wins); null clears it.
   * The format is checked here; where it points is the caller's to check (and delivery's, again).
   */
  async setPayinCallbackUrl(merchantId: number, url: string | null): Promise<MerchantView> {
    if (url !== null && !isNotifyUrl(url))
      throw new RangeError('callback URL must be an absolute http or https URL of at most 2048 characters');
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { payinCallbackUrl: url } });
  }

  async setActive(merchantId: number, active: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.prisma.merchant.update({ where: { id: merchantId }, data: { isActive: active } });
  }

  async webhookSecret(
    merchantId: number,
  ): Promise<{ secret: string; previous: string | null; previousExpiresAt: Date | null }> {
    const m = await this.prisma.merchant.findUnique({
      where: { id: merchantId },
      select: { webhookSecret: true, webhookSecretPrevious: true, webhookSecretPreviousExpiresAt: true },
    });
    if (!m) throw new MerchantNotFoundError(merchantId);
    return {
      secret: m.webhookSecret,
      previous: m.webhookSecretPrevious,
      previousExpiresAt: m.webhookSecretPreviousExpiresAt,
    };
  }

  /**
   * Issues a new webhook secret. The old one keeps signing (a second v1 signature) for
   * `graceHours`, so the merchant can switch without losing a callback; 0 retires it at once.
   */
  async rotateWebhookSecret(
    merchantId: number,
    graceHours: number,
  ): Promise<{ secret: string; previousExpiresAt: Date | null }> {
    if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > 720)
      throw new MerchantInputError('graceHours', 'graceHours must be between 0 and 720');
    const current = await this.webhookSecret(merchantId);
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    const previousExpiresAt = graceHours > 0 ? new Date(Date.now() + graceHours * 3_600_000) : null;
    await this.prisma.merchant.update({
      where: { id: merchantId },
      data: {
        webhookSecret: secret,
        webhookSecretPrevious: graceHours > 0 ? current.secret : null,
        webhookSecretPreviousExpiresAt: previousExpiresAt,
      },
    });
    return { secret, previousExpiresAt };
  }
}
