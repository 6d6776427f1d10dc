import { Transform } from 'node:stream';
import { formatAmountString, formatJakartaDateTime, pctMilliToPercent } from '@pay/domain';
import type { ReconRow } from '@pay/persistence';

/** The recon CSV columns, in order (documented in the README). Never reorder: merchants parse by position too. */
export const RECON_COLUMNS = [
  'merchantTrxId',
  'platformTrxId',
  'merchantName',
  'status',
  'amount',
  'fee',
  'netAmount',
  'feePercentage',
  'feeFixed',
  'createdAt',
  'success_at',
  'rrn',
  'issuer',
  'nmid',
  'settlementId',
] as const;

export interface ReconTotals {
  rowCount: number;
  /** Over successful pay-ins only: what reached the ledger */
  gross: bigint;
  fees: bigint;
  net: bigint;
}

/** Turns pay-in rows into CSV records (times in Asia/Jakarta, amounts with at most two decimals), counting totals. */
export function reconRecords(asOf: Date): { transform: Transform; totals: ReconTotals } {
  const totals: ReconTotals = { rowCount: 0, gross: 0n, fees: 0n, net: 0n };
  const transform = new Transform({
    objectMode: true,
    transform(row: ReconRow, _enc, callback) {
      const amount = BigInt(row.amount);
      const fee = BigInt(row.fee);
      const expired = row.status === 'pending' && row.expires_at !== null && row.expires_at <= asOf;
      const status = expired ? 'expired' : row.status;
      totals.rowCount++;
      if (status === 'success') {
        totals.gross += amount;
        totals.fees += fee;
        totals.net += amount - fee;
      }
      callback(null, [
        row.merchant_trx_id,
        row.platform_trx_id,
        row.merchant_name,
        status,
        formatAmountString(amount),
        formatAmountString(fee),
        formatAmountString(amount - fee),
        String(pctMilliToPercent(row.fee_pct_milli)),
        formatAmountString(BigInt(row.fee_fixed)),
        formatJakartaDateTime(row.created_at),
        row.success_at ? formatJakartaDateTime(row.success_at) : '',
        row.rrn ?? '',
        row.issuer ?? '',
        row.nmid ?? '',
        row.settlement_id ?? '',
      ]);
    },
  });
  return { transform, totals };
}
