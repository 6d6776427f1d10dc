import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Pool } from 'pg';
import QueryStream from 'pg-query-stream';
import { isUniqueViolation, type PrismaClient } from '../client/prisma';
import type { ReconExport } from '../generated/prisma/client';

export type { ReconExport };

/** One pay-in as the recon file shows it (straight from SQL, streamed). */
export interface ReconRow {
  merchant_trx_id: string;
  platform_trx_id: string;
  merchant_name: string;
  status: string;
  expires_at: Date | null;
  amount: string;
  fee: string;
  fee_pct_milli: number;
  fee_fixed: string;
  created_at: Date;
  success_at: Date | null;
  rrn: string | null;
  issuer: string | null;
  nmid: string | null;
  settlement_id: string | null;
}

/** Recon export jobs, and the stream of a merchant's pay-ins of one day. */
export class ReconExportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  latest(merchantId: number, date: string): Promise<ReconExport | null> {
    return this.prisma.reconExport.findFirst({ where: { merchantId, date: new Date(`${date}T00:00:00Z`) }, orderBy: { createdAt: 'desc' } });
  }

  get(id: string): Promise<ReconExport | null> {
    return this.prisma.reconExport.findUnique({ where: { id } });
  }

  /** A new queued export; if another request created one a moment ago, that one. */
  async createQueued(merchantId: number, date: string): Promise<ReconExport> {
    try {
      return await this.prisma.reconExport.create({ data: { id: randomUUID(), merchantId, date: new Date(`${date}T00:00:00Z`), status: 'queued' } });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return this.prisma.reconExport.findFirstOrThrow({ where: { merchantId, date: new Date(`${date}T00:00:00Z`), status: { in: ['queued', 'running'] } } });
    }
  }

  /** True when a pay-in of that day changed after the file was built. */
  async isStale(e: ReconExport, from: Date, to: Date): Promise<boolean> {
    if (!e.dataAsOf) return true;
    const changed = await this.prisma.payin.count({ where: { merchantId: e.merchantId, createdAt: { gte: from, lt: to }, updatedAt: { gt: e.dataAsOf } } });
    return changed > 0;
  }

  markFailureReported(id: string): Promise<unknown> {
    return this.prisma.reconExport.update({ where: { id }, data: { failureReported: true } });
  }

  /** Queued exports nobody has started (a lost queue job); the sweeper enqueues them again. */
  async stuckQueued(olderThan: Date): Promise<string[]> {
    const rows = await this.prisma.reconExport.findMany({ where: { status: 'queued', createdAt: { lt: olderThan } }, select: { id: true }, take: 100 });
    return rows.map((r) => r.id);
  }

  /** Starts an attempt; returns the instant the data is read as of. Null when the export is already finished. */
  async start(id: string): Promise<{ export: ReconExport; asOf: Date } | null> {
    const [row] = await this.prisma.$queryRaw<{ as_of: Date }[]>`
      UPDATE recon_exports SET status = 'running', started_at = now() WHERE id = ${id}::uuid AND status IN ('queued', 'running')
      RETURNING now() AS as_of`;
    if (!row) return null;
    return { export: await this.prisma.reconExport.findUniqueOrThrow({ where: { id } }), asOf: row.as_of };
  }

  finish(id: string, result: { objectKey: string; rowCount: number; gross: bigint; fees: bigint; net: bigint; dataAsOf: Date }): Promise<unknown> {
    return this.prisma.reconExport.update({ where: { id }, data: { status: 'ready', finishedAt: new Date(), error: null, ...result } });
  }

  fail(id: string, error: string): Promise<unknown> {
    return this.prisma.reconExport.update({ where: { id }, data: { status: 'failed', finishedAt: new Date(), error } });
  }
}

/**
 * The merchant's pay-ins created in [from, to), oldest first, as a stream of rows read through
 * a server-side cursor (pg-query-stream): memory stays flat however many rows the day has.
 * The caller releases the connection with the returned `done` once the stream ends.
 */
export async function streamReconRows(pool: Pool, merchantId: number, from: Date, to: Date): Promise<{ rows: Readable; done: () => void }> {
  const client = await pool.connect();
  const query = new QueryStream(
    `SELECT p.merchant_trx_id, p.platform_trx_id, m.name AS merchant_name, p.status, p.expires_at,
            p.amount::text AS amount, p.fee::text AS fee, p.fee_pct_milli, p.fee_fixed::text AS fee_fixed,
            p.created_at, p.success_at, p.rrn, p.issuer, p.nmid, p.settlement_id::text AS settlement_id
       FROM payins p JOIN merchants m ON m.id = p.merchant_id
      WHERE p.merchant_id = $1 AND p.created_at >= $2 AND p.created_at < $3
      ORDER BY p.created_at, p.id`,
    [merchantId, from, to],
    { batchSize: 2000 },
  );
  const rows = client.query(query);
  let released = false;
  return {
    rows,
    done: () => {
      if (released) return;
      released = true;
      client.release();
    },
  };
}
