import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { isUniqueViolation, type PrismaClient } from '../client/prisma';
import type { ReconExport } from '../generated/prisma/client';
import { neutraliseFormulas } from './formula-neutraliser';

export type { ReconExport };

/**
 * How many times a new export is tried against the day's export in progress finishing under it:
 * each retry needs another export of the same day to be created and finish in between.
 */
const QUEUE_ATTEMPTS = 5;

/** Recon export jobs, and the stream of a merchant's pay-ins of one day. */
export class ReconExportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  latest(merchantId: number, date: string): Promise<ReconExport | null> {
    return this.prisma.reconExport.findFirst({
      where: { merchantId, date: dayOf(date) },
      orderBy: { createdAt: 'desc' },
    });
  }

  get(id: string): Promise<ReconExport | null> {
    return this.prisma.reconExport.findUnique({ where: { id } });
  }

  /** A new queued export; if the day already has one queued or running (another request's), that one. */
  createQueued(merchantId: number, date: string): Promise<ReconExport> {
    return this.queuedOrInProgress(merchantId, date, () =>
      this.prisma.reconExport.create({ data: newExport(merchantId, date) }),
    );
  }

  /**
   * createQueued, unless the merchant already has `maxOutstanding` exports queued or running (null):
   * one merchant cannot fill the export queue ahead of the others. The count and the insert run
   * under a per-merchant advisory lock, so concurrent requests cannot both pass the count.
   */
  createQueuedWithin(merchantId: number, date: string, maxOutstanding: number): Promise<ReconExport | null> {
    return this.queuedOrInProgress(merchantId, date, () =>
      this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('recon_exports_outstanding'), ${merchantId}::int)::text`;
        const outstanding = await tx.reconExport.count({
          where: { merchantId, status: { in: ['queued', 'running'] } },
        });
        if (outstanding >= maxOutstanding) return null;
        return tx.reconExport.create({ data: newExport(merchantId, date) });
      }),
    );
  }

  /**
   * `insert`, or, when the day already has an export queued or running (its partial unique index
   * refused the insert), that export. The one in progress may finish between the refused insert
   * and the read: then the index is free again and the insert is tried anew.
   */
  private async queuedOrInProgress<T extends ReconExport | null>(
    merchantId: number,
    date: string,
    insert: () => Promise<T>,
  ): Promise<T | ReconExport> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await insert();
      } catch (err) {
        if (!isUniqueViolation(err) || attempt === QUEUE_ATTEMPTS) throw err;
      }
      const inProgress = await this.prisma.reconExport.findFirst({
        where: { merchantId, date: dayOf(date), status: { in: ['queued', 'running'] } },
      });
      if (inProgress) return inProgress;
    }
  }

  /** True when a pay-in of that day changed after the file was built. */
  async isStale(e: ReconExport, from: Date, to: Date): Promise<boolean> {
    if (!e.dataAsOf) return true;
    const changed = await this.prisma.payin.count({
      where: { merchantId: e.merchantId, createdAt: { gte: from, lt: to }, updatedAt: { gt: e.dataAsOf } },
    });
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

  finish(
    id: string,
    result: { objectKey: string; rowCount: number; gross: bigint; fees: bigint; net: bigint; dataAsOf: Date },
  ): Promise<unknown> {
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

function newExport(merchantId: number, date: string) {
  return { id: randomUUID(), merchantId, date: dayOf(date), status: 'queued' };
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
  /** Over successful pay-ins only: what reached the ledger */
  gross: bigint;
  fees: bigint;
  net: bigint;
}

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
export function reconCsvCopy(merchantId: number, from: Date, to: Date): string {
  // COPY takes no bind parameters: every value below is a number or an ISO timestamp we produced.
  // Whole Rupiah (nearly every amount) print as integers; the rest as an exact numeric times 0.01
  // without trailing zeros. Numeric arithmetic on five columns of every row was the dearest part
  // of the query (docs/decisions/0019); the text is the same either way.
  const decimal = (col: string, unit: number) =>
    `CASE WHEN (${col}) % ${unit} = 0 THEN ((${col}) / ${unit})::text ELSE trim_scale((${col}) * ${1 / unit})::text END`;
  const rupiah = (col: string) => decimal(col, 100);
  // Jakarta wall-clock time to the second, printed by the timestamp type itself under DateStyle
  // ISO (RECON_COPY_SETTINGS) as YYYY-MM-DD HH:MM:SS: to_char's formatting was 0.3 s of Postgres
  // CPU per million rows (docs/decisions/0009). Asia/Jakarta is UTC+7 all year (as in @pay/domain's
  // jakarta-time), so the offset is a fixed interval: the zone's name made Postgres look the zone
  // up and resolve its rules on every value, 0.4 s per million rows (docs/decisions/0009).
  const wib = (col: string) => `date_trunc('second', ${col} AT TIME ZONE INTERVAL '+07:00')`;
  // rrn and issuer are facts of a payment: empty unless paid (a failed notification may name an issuer; it stays in the row, not the file).
  const paidOnly = (col: string) => `CASE WHEN p.status = 'success' THEN ${neutraliseFormulas(col)} END`;
  // The merchant's name is the same on every row: neutralised once, not joined and tested per row.
  return `COPY (
    WITH merchant AS MATERIALIZED (SELECT ${neutraliseFormulas('name')} AS name FROM merchants WHERE id = ${Number(merchantId)})
    SELECT ${neutraliseFormulas('p.merchant_trx_id')} AS "merchantTrxId", p.platform_trx_id AS "platformTrxId", (SELECT name FROM merchant) AS "merchantName",
           CASE WHEN p.status = 'pending' AND p.expires_at <= now() THEN 'expired' ELSE p.status END AS "status",
           ${rupiah('p.amount')} AS "amount", ${rupiah('p.fee')} AS "fee", ${rupiah('p.amount - p.fee')} AS "netAmount",
           ${decimal('p.fee_pct_milli', 1000)} AS "feePercentage", ${rupiah('p.fee_fixed')} AS "feeFixed",
           ${wib('p.created_at')} AS "createdAt", ${wib('p.success_at')} AS "success_at",
           ${paidOnly('p.rrn')} AS "rrn", ${paidOnly('p.issuer')} AS "issuer", ${neutraliseFormulas('p.nmid')} AS "nmid", p.settlement_id AS "settlementId"
      FROM payins p
     WHERE p.merchant_id = ${Number(merchantId)}
       AND p.created_at >= '${from.toISOString()}' AND p.created_at < '${to.toISOString()}'
     ORDER BY p.created_at, p.id
  ) TO STDOUT (FORMAT csv, HEADER true)`;
}

/**
 * The merchant's pay-ins created in [from, to) as RFC 4180 CSV bytes, produced by Postgres
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
): Promise<{
  csv: Readable;
  summary: Promise<{ totals: ReconTotals; asOf: Date }>;
  done: (err?: unknown) => Promise<void>;
}> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const settings = Object.entries(RECON_COPY_SETTINGS);
    // The transaction's snapshot is taken here, by its first statement: the COPY and the totals share it.
    await client.query(
      `SELECT ${settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
      settings.flat(),
    );
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw err;
  }
  const csv = client.query(copyTo(reconCsvCopy(merchantId, from, to)));
  // Queued by the driver behind the COPY: it runs once the COPY has sent its last row.
  const summary = client
    .query<{ as_of: Date; n: string; gross: string; fees: string }>(
      `SELECT now() AS as_of, COUNT(*)::text AS n,
              COALESCE(SUM(amount) FILTER (WHERE status = 'success'), 0)::text AS gross,
              COALESCE(SUM(fee) FILTER (WHERE status = 'success'), 0)::text AS fees
         FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3`,
      [merchantId, from, to],
    )
    .then(({ rows: [{ as_of: asOf, n, gross, fees }] }) => ({
      totals: { rowCount: Number(n), gross: BigInt(gross), fees: BigInt(fees), net: BigInt(gross) - BigInt(fees) },
      asOf,
    }));
  summary.catch(() => undefined); // awaited by the caller after the upload; not unhandled when the upload fails first
  let finished = false;
  return {
    csv,
    summary,
    done: async (err?: unknown) => {
      if (finished) return;
      finished = true;
      if (err) {
        // The COPY may still be running, unread (the upload failed before reading it): a ROLLBACK
        // would queue behind it for ever. Dropping the connection ends both; the read-only
        // transaction has nothing to undo. (The chaos run found this: S3 stopped, exports hung.)
        csv.destroy();
        client.release(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      await summary.catch(() => undefined);
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    },
  };
}
