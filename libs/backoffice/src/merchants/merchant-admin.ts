import { randomBytes } from 'node:crypto';
import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { API_SCOPES, type ApiScope, type Minor, normaliseAllowlistEntry, normaliseScopes } from '@pay/domain';
import { generateToken, MerchantRepository, type MerchantView, type PrismaClient } from '@pay/persistence';
import { checkWebhookTarget, isNotifyUrl, type WebhookTargetPolicy, WebhookTargetRefused } from '@pay/platform';
import { type FeeInput, invalidInput as invalid, parseFeeInput } from './merchant-input';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const merchantNotFound = (merchantId: number) =>
  new BackofficeError(BackofficeErrorCode.MerchantNotFound, `merchant ${merchantId} not found`);

const tokenNotFound = (tokenId: string) =>
  new BackofficeError(BackofficeErrorCode.TokenNotFound, `token ${tokenId} not found`);

/** A new merchant's first credentials, shown once. */
export interface OnboardedMerchant {
  merchantId: number;
  name: string;
  nmid: string;
  token: string;
  webhookSecret: string;
}

/**
 * What operators do to merchants (admin CLI, ops API, console, local runner) and merchants to
 * their own credentials (dashboard): the rules, over MerchantRepository. Unknown merchant or
 * token, and refused input (naming the field), are BackofficeErrors.
 */
export class MerchantAdmin {
  private readonly merchants: MerchantRepository;

  /** `callbackTargets`: whether a callback URL may point at loopback or a listed private host (WEBHOOK_ALLOW_*, tests only). */
  constructor(
    prisma: PrismaClient,
    private readonly callbackTargets: WebhookTargetPolicy = { allowLoopback: false, allowPrivateHosts: [] },
  ) {
    this.merchants = new MerchantRepository(prisma);
  }

  async create(input: {
    name: string;
    payinFeePctMilli?: number;
    payinFeeFixed?: Minor;
    payoutFeeFlat?: Minor;
  }): Promise<MerchantView> {
    const name = input.name.trim();
    if (!name) throw invalid('name', 'name must not be empty');
    return this.merchants.create({
      name,
      payinFeePctMilli: input.payinFeePctMilli,
      payinFeeFixed: input.payinFeeFixed,
      payoutFeeFlat: input.payoutFeeFlat,
    });
  }

  /** A merchant with default fees, one API token (answered once, labelled) and its webhook secret. */
  async onboard(name: string, tokenLabel: string): Promise<OnboardedMerchant> {
    const merchant = await this.create({ name });
    const { token } = await this.issueToken(merchant.id, tokenLabel);
    const { secret } = await this.webhookSecret(merchant.id);
    return { merchantId: merchant.id, name: merchant.name, nmid: merchant.nmid, token, webhookSecret: secret };
  }

  async get(merchantId: number): Promise<MerchantView> {
    const merchant = await this.merchants.find(merchantId);
    if (!merchant) throw merchantNotFound(merchantId);
    return merchant;
  }

  list(): Promise<MerchantView[]> {
    return this.merchants.list();
  }

  /**
   * Returns the token in clear text: the only time it is ever available. `scopes`: what it may do
   * (docs/access.md), fixed for its life; left out, every scope. An unknown scope or none is refused.
   */
  async issueToken(
    merchantId: number,
    label = '',
    scopes?: readonly string[],
  ): Promise<{ id: string; token: string; prefix: string; scopes: ApiScope[] }> {
    const chosen = normaliseScopes(scopes);
    if ('invalid' in chosen)
      throw invalid(
        'scopes',
        chosen.invalid
          ? `unknown scope ${chosen.invalid}: one of ${API_SCOPES.join(', ')}`
          : 'a token needs at least one scope',
      );
    await this.get(merchantId);
    const { token, hash, prefix } = generateToken();
    const id = await this.merchants.insertToken(merchantId, { tokenHash: hash, prefix, label, scopes: chosen.scopes });
    return { id, token, prefix, scopes: chosen.scopes };
  }

  async listTokens(merchantId: number) {
    await this.get(merchantId);
    return this.merchants.listTokens(merchantId);
  }

  /**
   * Revoking is immediate: the gateway reads tokens live. Revoking twice is harmless. With
   * `ofMerchant` (the merchant's own dashboard), a token of another merchant is not found.
   */
  async revokeToken(tokenId: string, ofMerchant?: number): Promise<{ merchantId: number; revokedAt: Date }> {
    // Token ids are UUIDs: anything else cannot name one (and would be a type error in the query).
    if (!UUID.test(tokenId)) throw tokenNotFound(tokenId);
    const existing = await this.merchants.findToken(tokenId);
    if (!existing || (ofMerchant !== undefined && existing.merchantId !== ofMerchant)) throw tokenNotFound(tokenId);
    if (existing.revokedAt) return { merchantId: existing.merchantId, revokedAt: existing.revokedAt };
    return this.merchants.revokeToken(tokenId, new Date());
  }

  async setFees(
    merchantId: number,
    fees: { payinFeePctMilli?: number; payinFeeFixed?: Minor; payoutFeeFlat?: Minor },
  ): Promise<MerchantView> {
    await this.get(merchantId);
    return this.merchants.update(merchantId, fees);
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
            throw invalid('entries', `entries: ${(err as Error).message}`);
          }
        }),
      ),
    ];
    await this.get(merchantId);
    return this.merchants.update(merchantId, { ipAllowlist: normalised, ipAllowlistEnabled: enabled });
  }

  /** An empty list, not enforced: the merchant is reachable from anywhere again. */
  async clearAllowlist(merchantId: number): Promise<MerchantView> {
    return this.setAllowlist(merchantId, [], false);
  }

  async setAllowlistEnabled(merchantId: number, enabled: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.merchants.update(merchantId, { ipAllowlistEnabled: enabled });
  }

  /** QRIS identity printed into every code: NMID (from the acquirer), MCC, criteria, city, postal code. */
  async setQris(
    merchantId: number,
    qris: { nmid?: string; mcc?: string; merchantCriteria?: string; city?: string; postalCode?: string },
  ): Promise<MerchantView> {
    if (Object.values(qris).every((v) => v === undefined))
      throw invalid('nmid', 'give at least one of nmid, mcc, merchantCriteria, city, postalCode');
    if (qris.nmid !== undefined && !/^ID\d{10,13}$/.test(qris.nmid))
      throw invalid('nmid', 'nmid must be ID followed by 10 to 13 digits');
    if (qris.mcc !== undefined && !/^\d{4}$/.test(qris.mcc)) throw invalid('mcc', 'mcc must be 4 digits');
    if (qris.merchantCriteria !== undefined && !['UMI', 'UKE', 'UME', 'UBE', 'URE'].includes(qris.merchantCriteria))
      throw invalid('merchantCriteria', 'merchantCriteria must be UMI, UKE, UME, UBE or URE');
    if (qris.city !== undefined && (qris.city.trim() === '' || qris.city.length > 100))
      throw invalid('city', 'city must be 1 to 100 characters');
    if (qris.postalCode !== undefined && !/^\d{5}$/.test(qris.postalCode))
      throw invalid('postalCode', 'postalCode must be 5 digits');
    await this.get(merchantId);
    return this.merchants.update(merchantId, qris);
  }

  /** Settlement schedule: T+delayDays at hour:00 Asia/Jakarta. */
  async setSettlementSchedule(
    merchantId: number,
    schedule: { delayDays?: number; hour?: number },
  ): Promise<MerchantView> {
    if (schedule.delayDays === undefined && schedule.hour === undefined)
      throw invalid('delayDays', 'give at least one of delayDays, hour');
    if (
      schedule.delayDays !== undefined &&
      (!Number.isInteger(schedule.delayDays) || schedule.delayDays < 1 || schedule.delayDays > 30)
    )
      throw invalid('delayDays', 'delayDays must be a whole number of days from 1 to 30');
    if (schedule.hour !== undefined && (!Number.isInteger(schedule.hour) || schedule.hour < 0 || schedule.hour > 23))
      throw invalid('hour', 'hour must be a whole hour from 0 to 23');
    await this.get(merchantId);
    return this.merchants.update(merchantId, {
      settlementDelayDays: schedule.delayDays,
      settlementHour: schedule.hour,
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
      throw invalid('read', 'give at least one of read, write, export');
    for (const [name, value] of Object.entries(limits)) {
      if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > 100_000))
        throw invalid(name, `${name} limit must be a whole number from 1 to 100000`);
    }
    await this.get(merchantId);
    return this.merchants.update(merchantId, {
      rateLimitRead: limits.read,
      rateLimitWrite: limits.write,
      rateLimitExport: limits.export,
    });
  }

  /**
   * The merchant's default pay-in callback URL (a pay-in's own notifyUrl wins); null clears it.
   * The format is checked here; where it points is setCallbackUrl's to check (and delivery's, again).
   */
  async setPayinCallbackUrl(merchantId: number, url: string | null): Promise<MerchantView> {
    if (url !== null && !isNotifyUrl(url))
      throw invalid('url', 'callback URL must be an absolute http or https URL of at most 2048 characters');
    await this.get(merchantId);
    return this.merchants.update(merchantId, { payinCallbackUrl: url });
  }

  /**
   * Sets or clears the default pay-in callback URL (ops API, dashboard, CLI): the same
   * public-address check as a pay-in's notifyUrl (SSRF; 400 NOTIFY_URL_NOT_ALLOWED naming `url`),
   * then setPayinCallbackUrl.
   */
  async setCallbackUrl(merchantId: number, url: string | null): Promise<MerchantView> {
    if (url !== null) {
      try {
        await checkWebhookTarget(url, this.callbackTargets);
      } catch (err) {
        if (!(err instanceof WebhookTargetRefused)) throw err;
        throw new BackofficeError(
          BackofficeErrorCode.CallbackUrlRefused,
          `${err.message}; callbacks go to public addresses only`,
          'url',
        );
      }
    }
    return this.setPayinCallbackUrl(merchantId, url);
  }

  async setActive(merchantId: number, active: boolean): Promise<MerchantView> {
    await this.get(merchantId);
    return this.merchants.update(merchantId, { isActive: active });
  }

  async webhookSecret(
    merchantId: number,
  ): Promise<{ secret: string; previous: string | null; previousExpiresAt: Date | null }> {
    const m = await this.merchants.webhookSecrets(merchantId);
    if (!m) throw merchantNotFound(merchantId);
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
      throw invalid('graceHours', 'graceHours must be between 0 and 720');
    const current = await this.webhookSecret(merchantId);
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    const previousExpiresAt = graceHours > 0 ? new Date(Date.now() + graceHours * 3_600_000) : null;
    await this.merchants.update(merchantId, {
      webhookSecret: secret,
      webhookSecretPrevious: graceHours > 0 ? current.secret : null,
      webhookSecretPreviousExpiresAt: previousExpiresAt,
    });
    return { secret, previousExpiresAt };
  }
}
