import { formatAmount, type Minor } from '../money/money';

/** The callback of a settlement credited: pending became available. Never rename. */
export const SETTLEMENT_CREDITED_CALLBACK = 'settlement.credited';

/** One per settlement; stable across retries and resends. */
export function settlementCreditedEventId(settlementId: string): string {
  return `settlement.${settlementId}.credited`;
}

export interface SettlementCreditedFacts {
  settlementId: string;
  merchantId: number;
  merchantName: string;
  /** What moved from pending to available: the pay-ins' nets minus what refunds had taken from pending */
  amount: Minor;
  gross: Minor;
  fees: Minor;
  refunds: Minor;
  cutoffAt: Date | null;
  payins: {
    merchantTrxId: string;
    platformTrxId: string;
    amount: Minor;
    fee: Minor;
    /** amount - fee - what refunds took from pending: its share of `amount` */
    net: Minor;
  }[];
  occurredAt: Date;
}

/**
 * The settlement.credited callback's body: the settlement's amounts and the pay-ins it covers,
 * each with its amount, fee and net (Rupiah). Built once and stored, so every attempt sends, and
 * signs, the same bytes.
 */
export function settlementCreditedCallbackBody(f: SettlementCreditedFacts): string {
  return JSON.stringify({
    id: settlementCreditedEventId(f.settlementId),
    type: SETTLEMENT_CREDITED_CALLBACK,
    createdAt: f.occurredAt.toISOString(),
    data: {
      idMerchant: f.merchantId,
      merchantName: f.merchantName,
      settlementId: f.settlementId,
      amount: formatAmount(f.amount),
      gross: formatAmount(f.gross),
      fees: formatAmount(f.fees),
      refunds: formatAmount(f.refunds),
      cutoffAt: f.cutoffAt ? f.cutoffAt.toISOString() : null,
      payinCount: f.payins.length,
      payins: f.payins.map((p) => ({
        merchantTrxId: p.merchantTrxId,
        platformTrxId: p.platformTrxId,
        amount: formatAmount(p.amount),
        fee: formatAmount(p.fee),
        net: formatAmount(p.net),
      })),
    },
  });
}
