import { ErrorCode } from '@pay/contracts';
import {
  chargedFee,
  type DisbursementStatus,
  formatAmountString,
  formatJakartaDateTime,
  publicStatus,
} from '@pay/domain';
import {
  type Disbursement,
  type ListPosition,
  type ListWindow,
  neutraliseFormulaText,
  type Payin,
  PAYOUT_FILE_COLUMNS,
  RECON_COLUMNS,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { payinStatus } from '../../kernel/presenters/payin.presenter';

/**
 * The dashboard's lists as CSV downloads: every row the list's filters match (not only the page
 * on screen), with the columns and formatting of the day files (the recon CSV for pay-ins, the
 * payouts file for payouts: same names, Rupiah, Jakarta times, formulas neutralised), so a row
 * reads the same wherever it was downloaded from. Over LIST_CSV_MAX_ROWS rows is refused before
 * anything is sent: a range that large is what the day files are for.
 */
export const LIST_CSV_MAX_ROWS = 10_000;
const PAGE_ROWS = 500;

/** Every row of the window's list, oldest page last as the list shows them; 400 over the cap. */
export async function everyRow<R extends { createdAt: Date; id: string }>(
  read: (w: ListWindow) => Promise<R[]>,
  window: ListWindow,
): Promise<R[]> {
  const rows: R[] = [];
  let after: ListPosition | undefined = window.after;
  for (;;) {
    const page = await read({ ...window, limit: PAGE_ROWS, after });
    rows.push(...page);
    if (rows.length > LIST_CSV_MAX_ROWS)
      throw new ApiError(
        ErrorCode.ValidationError,
        `More than ${LIST_CSV_MAX_ROWS} rows match: narrow the dates, or export the days on the Reconciliation page`,
      );
    if (page.length < PAGE_ROWS) return rows;
    const last = page[page.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}

const text = (v: string | null) => (v === null ? '' : neutraliseFormulaText(v));
const time = (at: Date | null) => (at ? formatJakartaDateTime(at) : '');
const rupiah = formatAmountString;

/** The recon CSV's columns of one pay-in (RECON_COLUMNS). */
export function payinCsvRow(p: Payin, merchantName: string, now: Date): string[] {
  const paid = p.status === 'success';
  const row: Record<(typeof RECON_COLUMNS)[number], string> = {
    merchantTrxId: text(p.merchantTrxId),
    platformTrxId: p.platformTrxId,
    merchantName: text(merchantName),
    status: payinStatus(p, now),
    amount: rupiah(p.amount),
    fee: rupiah(p.fee),
    netAmount: rupiah(p.amount - p.fee),
    feePercentage: String(p.feePctMilli / 1000),
    feeFixed: rupiah(p.feeFixed),
    createdAt: time(p.createdAt),
    success_at: time(p.successAt),
    rrn: paid ? text(p.rrn) : '',
    issuer: paid ? text(p.issuer) : '',
    nmid: text(p.nmid),
    settlementId: p.settlementId ?? '',
  };
  return RECON_COLUMNS.map((c) => row[c]);
}

/** The payouts file's columns of one payout (PAYOUT_FILE_COLUMNS). */
export function payoutCsvRow(d: Disbursement, merchantName: string): string[] {
  const status = d.status as DisbursementStatus;
  const fee = chargedFee(status, d.fee);
  const row: Record<(typeof PAYOUT_FILE_COLUMNS)[number], string> = {
    merchantTrxId: text(d.merchantTrxId),
    platformTrxId: d.platformTrxId,
    merchantName: text(merchantName),
    status: publicStatus(status, d.approval) ?? '',
    bankCode: d.bankCode,
    accountNo: text(d.accountNo),
    accountName: text(d.accountName),
    amount: rupiah(d.amount),
    fee: rupiah(fee),
    totalAmount: rupiah(d.amount + fee),
    createdAt: time(d.createdAt),
    completedAt: time(d.successAt ?? d.failedAt),
    failureCode: d.failureCode ?? '',
    failureReason: text(d.failureReason),
    reversedAt: time(d.reversedAt),
    reversalReason: text(d.reversalReason),
  };
  return PAYOUT_FILE_COLUMNS.map((c) => row[c]);
}

/** `payins-<merchant>-<today in Jakarta>.csv` */
export function csvName(list: 'payins' | 'payouts', merchantId: number): string {
  return `${list}-${merchantId}-${formatJakartaDateTime(new Date()).slice(0, 10)}.csv`;
}

/** Sends the rows as an attachment (RFC 4180, header row, \n line ends, UTF-8). */
export function sendCsv(reply: FastifyReply, filename: string, columns: readonly string[], rows: string[][]) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(stringify([[...columns], ...rows], { record_delimiter: 'unix' }));
}
