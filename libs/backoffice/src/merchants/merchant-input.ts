import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { formatAmountString, type Minor, parseAmount, pctMilliToPercent, percentToPctMilli } from '@pay/domain';
import type { MerchantView } from '@pay/persistence';

/**
 * Operator input refused, naming the field (the ops API's body field, the CLI's option): the CLI
 * prints the message, the API answers 400 VALIDATION_ERROR with it.
 */
export const invalidInput = (field: string, message: string) =>
  new BackofficeError(BackofficeErrorCode.InvalidInput, message, field);

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
    throw invalidInput('payinFeePercent', 'give at least one of payinFeePercent, payinFeeFixed, payoutFee');
  }
  const amount = (field: string, value: string | number | undefined): Minor | undefined => {
    if (value === undefined) return undefined;
    try {
      return parseAmount(value);
    } catch {
      throw invalidInput(field, `${field} must be an amount in Rupiah with at most two decimals, e.g. 2500 or 150.50`);
    }
  };
  let pctMilli: number | undefined;
  if (payinFeePercent !== undefined) {
    try {
      pctMilli = percentToPctMilli(payinFeePercent);
    } catch {
      throw invalidInput(
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
