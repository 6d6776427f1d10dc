import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { isUniqueViolation, type PrismaClient } from '../client/prisma';
import type { ReconExport } from '../generated/prisma/client';
import { neutraliseFormulas } from './formula-neutraliser';
import { decimal, rupiah, wib } from './csv-sql';
import { csvSnapshot, type CsvSnapshot, openSnapshot } from './copy-snapshot';

export type { ReconExport };

/**
 * The day files a merchant can export: its pay-ins (the recon CSV of the specification), its
 * payouts (fees, failure code and reason) and its balance movements (every ledger event, with the
 * balance it left). Each kind of a day is an export of its own.
 */
export const RECON_FILE_KINDS = ['payins', 'payouts', 'movements'] as const;
export type ReconFileKind = (typeof RECON_FILE_KINDS)[number];

/**
 * The platform's own files of a day, built the same way but for operators, with no merchant: the
 * day's journal (every posting of its entries) and the trial balance at its close (docs/books.md),
 * and the day's reconciliation report, every run of the day (docs/operations/reconciliation.md).
 */
export const BOOKS_FILE_KINDS = ['journal', 'trial-balance', 'reconciliation'] as const;
export type BooksFileKind = (typeof BOOKS_FILE_KINDS)[number];
/** The books' files the ledger's own statements build (the reconciliation report is libs/reconciliation's). */
export type LedgerFileKind = Exclude<BooksFileKind, 'reconciliation'>;
export type ExportKind = ReconFileKind | BooksFileKind;

export const isBooksFileKind = (kind: string): kind is BooksFileKind =>
  (BOOKS_FILE_KINDS as readonly string[]).includes(kind);

/**
 * The state of a Jakarta day's reconciliation ($1, YYYY-MM-DD) digested: every run of the day (when
 * it last ran) and every break of those runs (its status, owner, resolution, when last found). A
 * re-run, an assign or a resolve gives another digest; a file built from the day is stale once the
 * day's digest is not its own. Built from the file's snapshot and from the day now alike.
 */
export const RECON_DAY_DIGEST_SQL = `
  SELECT md5(coalesce(string_agg(t, E'\\n' ORDER BY t), '')) AS digest FROM (
    SELECT concat_ws('|', 'run', r.id, extract(epoch FROM r.ran_at)) AS t FROM recon_runs r WHERE r.date = $1::date
    UNION ALL
    SELECT concat_ws('|', 'break', b.id, b.status, quote_nullable(b.owner), quote_nullable(b.resolution),
                     extract(epoch FROM b.last_seen_at))
      FROM recon_breaks b JOIN recon_runs r ON r.id = b.run_id WHERE r.date = $1::date
  ) AS day_state`;

/**
 * How many times a new export is tried against the day's export in progress finishing under it:
 * each retry needs another export of the same day to be created and finish in between.
 */
const QUEUE_ATTEMPTS = 5;

/**
 * Day file export jobs, and the stream of a merchant's day file. `merchantId` null: the
 * platform's books' files (BOOKS_FILE_KINDS), which have no merchant.
 */
export class ReconExportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  latest(merchantId: number | null, date: string, kind: ExportKind = 'payins'): Promise<ReconExport | null> {
    return this.prisma.reconExport.findFirst({
      where: { merchantId, date: dayOf(date), kind },
      orderBy: { createdAt: 'desc' },
    });
  }

  get(id: string): Promise<ReconExport | null> {
    return this.prisma.reconExport.findUnique({ where: { id } });
  }

  /** A new queued export; if the day already has one queued or running (another request's), that one. */
  createQueued(merchantId: number | null, date: string, kind: ExportKind = 'payins'): Promise<ReconExport> {
    return this.queuedOrInProgress(merchantId, date, kind, () =>
      this.prisma.reconExport.create({ data: newExport(merchantId, date, kind) }),
    );
  }

  /**
   * createQueued, unless the merchant already has `maxOutstanding` exports queued or running (null):
   * one merchant cannot fill the export queue ahead of the others. The count and the insert run
   * under a per-merchant advisory lock, so concurrent requests cannot both pass the count.
   */
  createQueuedWithin(
    merchantId: number,
    date: string,
    maxOutstanding: number,
    kind: ReconFileKind = 'payins',
  ): Promise<ReconExport | null> {
    return this.queuedOrInProgress(merchantId, date, kind, () =>
      this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('recon_exports_outstanding'), ${merchantId}::int)::text`;
        const outstanding = await tx.reconExport.count({
          where: { merchantId, status: { in: ['queued', 'running'] } },
        });
        if (outstanding >= maxOutstanding) return null;
        return tx.reconExport.create({ data: newExport(merchantId, date, kind) });
      }),
    );
  }

  /**
   * `insert`, or, when the day already has an export queued or running (its partial unique index
   * refused the insert), that export. The one in progress may finish between the refused insert
   * and the read: then the index is free again and the insert is tried anew.
   */
  private async queuedOrInProgress<T extends ReconExport | null>(
    merchantId: number | null,
    date: string,
    kind: ExportKind,
    insert: () => Promise<T>,
  ): Promise<T | ReconExport> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await insert();
      } catch (err) {
        if (!isUniqueViolation(err) || attempt === QUEUE_ATTEMPTS) throw err;
      }
      const inProgress = await this.prisma.reconExport.findFirst({
        where: { merchantId, date: dayOf(date), kind, status: { in: ['queued', 'running'] } },
      });
      if (inProgress) return inProgress;
    }
  }

  /**
   * True when the file no longer shows the day as it is: a pay-in (payout) of that day changed after
   * it was built; for movements, the day holds another number of ledger events (they are only ever
   * added, so a count is exact where a time would miss an event committed late); for the books'
   * files, another number of journal entries of the day (the journal) or up to its close (the trial
   * balance), for the same reason; for the reconciliation report, the day's runs or breaks changed
   * (RECON_DAY_DIGEST_SQL).
   */
  async isStale(e: ReconExport, from: Date, to: Date): Promise<boolean> {
    if (!e.dataAsOf) return true;
    if (e.kind === 'reconciliation') {
      const [now] = await this.prisma.$queryRawUnsafe<{ digest: string }[]>(RECON_DAY_DIGEST_SQL, dayText(e.date));
      return now.digest !== e.dataDigest;
    }
    if (isBooksFileKind(e.kind)) {
      // [from, to) is the Jakarta day: the journal reads it; the trial balance everything before its close.
      const occurredAt = e.kind === 'journal' ? { gte: from, lt: to } : { lt: to };
      return (await this.prisma.journalEntry.count({ where: { occurredAt } })) !== e.entryCount;
    }
    const merchantId = e.merchantId as number;
    const kind = e.kind as ReconFileKind;
    if (kind === 'movements')
      return (
        (await this.prisma.ledgerEvent.count({ where: { merchantId, occurredAt: { gte: from, lt: to } } })) !==
        e.rowCount
      );
    const changedSince = { merchantId, createdAt: { gte: from, lt: to }, updatedAt: { gt: e.dataAsOf } };
    const changed =
      kind === 'payouts'
        ? await this.prisma.disbursement.count({ where: changedSince })
        : await this.prisma.payin.count({ where: changedSince });
    return changed > 0;
  }

  markFailureReported(id: string): Promise<unknown> {
    return this.prisma.reconExport.update({ where: { id }, data: { failureReported: true } });
  }

  /** Exports not finished since before `olderThan` (queued or running): the sweeper looks at their jobs. */
  async unfinished(olderThan: Date): Promise<string[]> {
    const rows = await this.prisma.reconExport.findMany({
      where: { status: { in: ['queued', 'running'] }, createdAt: { lt: olderThan } },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: 100,
    });
    return rows.map((r) => r.id);
  }

  /** Starts an attempt; null when the export is already finished. */
  async start(id: string): Promise<ReconExport | null> {
    const changed = await this.prisma.$executeRaw`
      UPDATE recon_exports SET status = 'running', started_at = now() WHERE id = ${id}::uuid AND status IN ('queued', 'running')`;
    return changed ? this.prisma.reconExport.findUnique({ where: { id } }) : null;
  }

  finish(id: string, result: { objectKey: string; dataAsOf: Date } & ExportTotals): Promise<unknown> {
    return this.prisma.reconExport.update({
      where: { id },
      data: { status: 'ready', finishedAt: new Date(), error: null, ...result },
    });
  }

  fail(id: string, error: string): Promise<unknown> {
    return this.prisma.reconExport.update({ where: { id }, data: { status: 'failed', finishedAt: new Date(), error } });
  }
}

/** An export's day is stored as that day's UTC midnight. */
function dayOf(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}
const dayText = (d: Date) => d.toISOString().slice(0, 10);

function newExport(merchantId: number | null, date: string, kind: ExportKind) {
  return { id: randomUUID(), merchantId, date: dayOf(date), kind, status: 'queued' };
}

/** The CSV columns of the recon file, in order. Never reorder: merchants parse by position too. */
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
  /**
   * Over successful rows only (what reached the ledger). Pay-ins: amounts, fees, amount - fee.
   * Payouts: amounts, fees, amount + fee (what left the balance). Movements: null.
   */
  gross: bigint | null;
  fees: bigint | null;
  net: bigint | null;
}

/**
 * What a finished export records: a day file's totals, and for the books' files their entries and
 * debit and credit totals; for the reconciliation report, its runs (entryCount), open breaks and the
 * digest of the day it shows (RECON_DAY_DIGEST_SQL).
 */
export type ExportTotals = ReconTotals & {
  entryCount?: number | null;
  totalDebit?: bigint | null;
  totalCredit?: bigint | null;
  openBreaks?: number | null;
  dataDigest?: string | null;
};

/**
 * The settings the recon COPY runs under, in its transaction only. The day is read in order from
 * payins_merchant_id_created_at_idx (merchant_id, created_at, id), never sorted: the planner
 * underestimates a busy merchant's day on a large table (merchant and date are not independent)
 * and took a bitmap scan and a sort, which spilled to disk and held back the first byte until the
 * whole day was read (docs/decisions/0019). Times print as YYYY-MM-DD HH:MM:SS whatever the
 * server's default DateStyle.
 */
export const RECON_COPY_SETTINGS: Readonly<Record<string, string>> = {
  enable_sort: 'off',
  DateStyle: 'ISO, YMD',
  max_parallel_workers_per_gather: '0',
};

/**
 * The COPY statement of a merchant's recon CSV for [from, to) (see streamReconCsv), as the export
 * sends it, under RECON_COPY_SETTINGS; the recon benchmark runs the very same statement through
 * psql as its ceiling.
 */
// The merchant's name is the same on every row: neutralised once, not joined and tested per row.
const merchantName = (merchantId: number) =>
  `WITH merchant AS MATERIALIZED (SELECT ${neutraliseFormulas('name')} AS name FROM merchants WHERE id = ${Number(merchantId)})`;
const dayRange = (col: string, from: Date, to: Date) =>
  `${col} >= '${from.toISOString()}' AND ${col} < '${to.toISOString()}'`;

export function reconCsvCopy(merchantId: number, from: Date, to: Date): string {
  // rrn and issuer are facts of a payment: empty unless paid (a failed notification may name an issuer; it stays in the row, not the file).
  const paidOnly = (col: string) => `CASE WHEN p.status = 'success' THEN ${neutraliseFormulas(col)} END`;
  return `COPY (
    ${merchantName(merchantId)}
    SELECT ${neutraliseFormulas('p.merchant_trx_id')} AS "merchantTrxId", p.platform_trx_id AS "platformTrxId", (SELECT name FROM merchant) AS "merchantName",
           CASE WHEN p.status = 'pending' AND p.expires_at <= now() THEN 'expired' ELSE p.status END AS "status",
           ${rupiah('p.amount')} AS "amount", ${rupiah('p.fee')} AS "fee", ${rupiah('p.amount - p.fee')} AS "netAmount",
           ${decimal('p.fee_pct_milli', 1000)} AS "feePercentage", ${rupiah('p.fee_fixed')} AS "feeFixed",
           ${wib('p.created_at')} AS "createdAt", ${wib('p.success_at')} AS "success_at",
           ${paidOnly('p.rrn')} AS "rrn", ${paidOnly('p.issuer')} AS "issuer", ${neutraliseFormulas('p.nmid')} AS "nmid", p.settlement_id AS "settlementId"
      FROM payins p
     WHERE p.merchant_id = ${Number(merchantId)}
       AND ${dayRange('p.created_at', from, to)}
     ORDER BY p.created_at, p.id
  ) TO STDOUT (FORMAT csv, HEADER true)`;
}

/** The payouts file's columns, in order (the disbursement list's fields, with the failure's code and reason, and a reversal's time and reason). */
export const PAYOUT_FILE_COLUMNS = [
  'merchantTrxId',
  'platformTrxId',
  'merchantName',
  'status',
  'bankCode',
  'accountNo',
  'accountName',
  'amount',
  'fee',
  'totalAmount',
  'createdAt',
  'completedAt',
  'failureCode',
  'failureReason',
  'reversedAt',
  'reversalReason',
] as const;

/**
 * The payouts created in [from, to) as the merchant sees them (the disbursement inquiry's fee and
 * total): `funding` reads pending, refused
 * attempts (no money moved, no transfer) are not in it, as in the list; read in index order.
 */
export function payoutsCsvCopy(merchantId: number, from: Date, to: Date): string {
  // The fee as the inquiry shows it: a failed or reversed payout's fee is given back with its amount (chargedFee).
  const charged = `CASE WHEN d.status IN ('failed', 'reversed') THEN 0 ELSE d.fee END`;
  return `COPY (
    ${merchantName(merchantId)}
    SELECT ${neutraliseFormulas('d.merchant_trx_id')} AS "merchantTrxId", d.platform_trx_id AS "platformTrxId", (SELECT name FROM merchant) AS "merchantName",
           CASE WHEN d.status = 'funding' THEN 'pending' ELSE d.status END AS "status",
           d.bank_code AS "bankCode", ${neutraliseFormulas('d.account_no')} AS "accountNo", ${neutraliseFormulas('d.account_name')} AS "accountName",
           ${rupiah('d.amount')} AS "amount", ${rupiah(charged)} AS "fee", ${rupiah(`d.amount + ${charged}`)} AS "totalAmount",
           ${wib('d.created_at')} AS "createdAt", ${wib('coalesce(d.success_at, d.failed_at)')} AS "completedAt",
           d.failure_code AS "failureCode", ${neutraliseFormulas('d.failure_reason')} AS "failureReason",
           ${wib('d.reversed_at')} AS "reversedAt", ${neutraliseFormulas('d.reversal_reason')} AS "reversalReason"
      FROM disbursements d
     WHERE d.merchant_id = ${Number(merchantId)} AND d.status <> 'refused'
       AND ${dayRange('d.created_at', from, to)}
     ORDER BY d.created_at, d.id
  ) TO STDOUT (FORMAT csv, HEADER true)`;
}

/** The balance movements file's columns, in order (the movements list's fields). */
export const MOVEMENT_FILE_COLUMNS = [
  'seq',
  'createdAt',
  'type',
  'merchantTrxId',
  'platformTrxId',
  'settlementId',
  'availableChange',
  'pendingChange',
  'availableAfter',
  'pendingAfter',
] as const;

const UUID_TEXT = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/**
 * Every ledger event of the merchant in [from, to), in the order it was applied, with the
 * transaction it is about and the balance it left: the day's movements add up from the first
 * row's balance before to the last row's after.
 */
export function movementsCsvCopy(merchantId: number, from: Date, to: Date): string {
  const m = Number(merchantId);
  const ref = `CASE WHEN e.reference ~ ${UUID_TEXT} THEN e.reference::uuid END`;
  return `COPY (
    SELECT e.seq AS "seq", ${wib('e.occurred_at')} AS "createdAt", e.type AS "type",
           ${neutraliseFormulas('coalesce(p.merchant_trx_id, d.merchant_trx_id)')} AS "merchantTrxId",
           coalesce(p.platform_trx_id, d.platform_trx_id) AS "platformTrxId",
           CASE WHEN e.type = 'settlement.credited' THEN e.reference END AS "settlementId",
           ${rupiah('e.available_delta')} AS "availableChange", ${rupiah('e.pending_delta')} AS "pendingChange",
           ${rupiah('e.available_after')} AS "availableAfter", ${rupiah('e.pending_after')} AS "pendingAfter"
      FROM ledger_events e
      -- a refund's movements name the refunded pay-in
      LEFT JOIN payin_refunds r ON r.merchant_id = ${m} AND e.type IN ('payin.refunded', 'payin.refund_returned') AND r.id = ${ref}
      LEFT JOIN payins p ON p.merchant_id = ${m} AND e.type IN ('payin.recorded', 'payin.refunded', 'payin.refund_returned')
                        AND p.id = coalesce(r.payin_id, CASE WHEN e.type = 'payin.recorded' THEN ${ref} END)
      LEFT JOIN disbursements d ON d.merchant_id = ${m} AND e.type IN ('payout.debited', 'payout.refunded', 'payout.reversed') AND d.id = ${ref}
     WHERE e.merchant_id = ${m} AND ${dayRange('e.occurred_at', from, to)}
     ORDER BY e.occurred_at, e.id
  ) TO STDOUT (FORMAT csv, HEADER true)`;
}

/** Each kind's COPY and the totals of the same rows (one statement, $1 merchant, $2 from, $3 to). */
const DAY_FILES: Record<ReconFileKind, { copy: typeof reconCsvCopy; totals: string }> = {
  payins: {
    copy: reconCsvCopy,
    totals: `SELECT now() AS as_of, COUNT(*)::text AS n,
              COALESCE(SUM(amount) FILTER (WHERE status = 'success'), 0)::text AS gross,
              COALESCE(SUM(fee) FILTER (WHERE status = 'success'), 0)::text AS fees,
              COALESCE(SUM(amount - fee) FILTER (WHERE status = 'success'), 0)::text AS net
         FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3`,
  },
  payouts: {
    copy: payoutsCsvCopy,
    totals: `SELECT now() AS as_of, COUNT(*)::text AS n,
              COALESCE(SUM(amount) FILTER (WHERE status = 'success'), 0)::text AS gross,
              COALESCE(SUM(fee) FILTER (WHERE status = 'success'), 0)::text AS fees,
              COALESCE(SUM(amount + fee) FILTER (WHERE status = 'success'), 0)::text AS net
         FROM disbursements WHERE merchant_id = $1 AND status <> 'refused' AND created_at >= $2 AND created_at < $3`,
  },
  movements: {
    copy: movementsCsvCopy,
    totals: `SELECT now() AS as_of, COUNT(*)::text AS n, NULL::text AS gross, NULL::text AS fees, NULL::text AS net
         FROM ledger_events WHERE merchant_id = $1 AND occurred_at >= $2 AND occurred_at < $3`,
  },
};

/**
 * The merchant's day file of `kind` for [from, to) (pay-ins, as described here, payouts or
 * movements: DAY_FILES) as RFC 4180 CSV bytes, produced by Postgres
 * itself (`COPY ... TO STDOUT (FORMAT csv, HEADER)`) and streamed: no row is ever held in
 * memory, and it runs at the speed of psql's \copy. Amounts are Rupiah with at most two
 * decimals, times `YYYY-MM-DD HH:MM:SS` in Asia/Jakarta, a pending code past its expiry
 * reads `expired`. Free-text columns are neutralised against spreadsheet formulas (neutraliseFormulas).
 * `summary` (the totals and the instant the data is as of) comes from the same snapshot
 * (REPEATABLE READ), so it matches the file exactly; its query waits on the connection behind
 * the COPY and runs as soon as the last row is read, while the upload finishes, so it adds no
 * time before the first byte nor after the last. Call `done(err?)` when the stream has been
 * consumed.
 */
export async function streamReconCsv(
  pool: Pool,
  merchantId: number,
  from: Date,
  to: Date,
  kind: ReconFileKind = 'payins',
): Promise<CsvSnapshot<{ totals: ReconTotals; asOf: Date }>> {
  const client = await openSnapshot(pool, RECON_COPY_SETTINGS);
  const file = DAY_FILES[kind];
  const csv = client.query(copyTo(file.copy(merchantId, from, to)));
  // Queued by the driver behind the COPY: it runs once the COPY has sent its last row.
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  const summary = client
    .query<{ as_of: Date; n: string; gross: string | null; fees: string | null; net: string | null }>(file.totals, [
      merchantId,
      from,
      to,
    ])
    .then(({ rows: [{ as_of: asOf, n, gross, fees, net }] }) => ({
      totals: { rowCount: Number(n), gross: big(gross), fees: big(fees), net: big(net) },
      asOf,
    }));
  return csvSnapshot(client, csv, summary);
}
