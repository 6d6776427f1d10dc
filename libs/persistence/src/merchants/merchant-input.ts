import { formatAmountString, type Minor, parseAmount, pctMilliToPercent, percentToPctMilli } from '@pay/domain';
import type { MerchantView } from './merchant-admin';

/**
 * Operator input MerchantAdmin refuses, naming the field (the ops API's body field, the CLI's
 * option): the CLI prints the message, the ops API answers 400 VALIDATION_ERROR with it.
 */
export class MerchantInputError extends RangeError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'MerchantInputError';
  }
}

export class TokenNotFoundError extends Error {
  constructor(readonly tokenId: string) {
    super(`token ${tokenId} not found`);
    this.name = 'TokenNotFoundError';
  }
}

/** Fees as operators write them: a percentage (0.7 = 0.7 %) and Rupiah amounts with at most two decimals. */
export interface FeeInput {
  payinFeePercent?: string | number;
  payinFeeFixed?: string | number;
  payoutFee?: string | number;
}

export interface FeeTerms {
  payinFeePctMilli?: number;
  payinFeeFixed?: Minor;
  payoutFeeFlat?: Minor;
}

/** Operators' fee input in the units the merchant row stores; absent fields stay absent, at least one is required. */
export function parseFeeInput(input: FeeInput): FeeTerms {
  const { payinFeePercent, payinFeeFixed, payoutFee } = input;
  if (payinFeePercent === undefined && payinFeeFixed === undefined && payoutFee === undefined) {
    throw new MerchantInputError('payinFeePercent', 'give at least one of payinFeePercent, payinFeeFixed, payoutFee');
  }
  const amount = (field: string, value: string | number | undefined): Minor | undefined => {
    if (value === undefined) return undefined;
    try {
      return parseAmount(value);
    } catch {
      throw new MerchantInputError(
        field,
        `${field} must be an amount in Rupiah with at most two decimals, e.g. 2500 or 150.50`,
      );
    }
  };
  let pctMilli: number | undefined;
  if (payinFeePercent !== undefined) {
    try {
      pctMilli = percentToPctMilli(payinFeePercent);
    } catch {
      throw new MerchantInputError(
        'payinFeePercent',
        'payinFeePercent must be a percentage between 0 and 100 with at most three decimals, e.g. 0.7',
      );
    }
  }
  return {
    payinFeePctMilli: pctMilli,
    payinFeeFixed: amount('payinFeeFixed', payinFeeFixed),
    payoutFeeFlat: amount('payoutFee', payoutFee),
  };
}

/** A merchant as operators read it (`admin --json merchant show`, the ops API): percentages and Rupiah, no minor units. */
export function describeMerchant(m: MerchantView) {
  return {
    id: m.id,
    name: m.name,
    active: m.isActive,
    payinFee: { percentage: pctMilliToPercent(m.payinFeePctMilli), fixed: formatAmountString(m.payinFeeFixed) },
    payoutFee: formatAmountString(m.payoutFeeFlat),
    ipAllowlist: { enabled: m.ipAllowlistEnabled, entries: m.ipAllowlist },
    qris: { nmid: m.nmid, mcc: m.mcc, criteria: m.merchantCriteria, city: m.city, postalCode: m.postalCode },
    settlement: `T+${m.settlementDelayDays} at ${String(m.settlementHour).padStart(2, '0')}:00 Asia/Jakarta`,
    rateLimits: {
      readPerSecond: m.rateLimitRead ?? ('default' as const),
      writePerSecond: m.rateLimitWrite ?? ('default' as const),
      exportsPerMinute: m.rateLimitExport ?? ('default' as const),
    },
    payinCallbackUrl: m.payinCallbackUrl,
  };
}

export type MerchantDescription = ReturnType<typeof describeMerchant>;
