import { Readable } from 'node:stream';
import { type ExportTotals, inTransaction, RECON_DAY_DIGEST_SQL, sql } from '@pay/persistence';
import type { Pool } from 'pg';
import { dayReportsCsv } from './day-report-csv';
import { readDayReports } from './day-report.query';

/** The day's reconciliation file as the export queue takes a file: its CSV, its totals, `done` once consumed. */
export interface ReconciliationFile {
  csv: Readable;
  summary: Promise<{ totals: ExportTotals; asOf: Date }>;
  done: (err?: unknown) => Promise<void>;
}

/**
 * The `reconciliation` finance export of a Jakarta day (docs/operations/reconciliation.md): every
 * run of the day with its summary and breaks (dayReportsCsv), read in one REPEATABLE READ snapshot
 * with the totals it records: rows under the header, runs (as `entryCount`), open breaks, and the
 * digest of the day's runs and breaks (RECON_DAY_DIGEST_SQL) that tells when the file went stale.
 * A day's report is a few rows per run and one per break: built in memory, uploaded as one stream.
 */
export async function reconciliationFile(pool: Pool, date: string): Promise<ReconciliationFile> {
  const { reports, digest, asOf } = await inTransaction(
    pool,
    async (tx) => {
      const reports = await readDayReports(tx, date);
      const [{ digest }] = await tx.query<{ digest: string }>({ text: RECON_DAY_DIGEST_SQL, values: [date] });
      const [{ as_of }] = await tx.query<{ as_of: Date }>(sql`SELECT now() AS as_of`);
      return { reports, digest, asOf: as_of };
    },
    { isolation: 'REPEATABLE READ' },
  );
  const { csv, rows } = dayReportsCsv(reports);
  const totals: ExportTotals = {
    rowCount: rows,
    gross: null,
    fees: null,
    net: null,
    entryCount: reports.length,
    totalDebit: null,
    totalCredit: null,
    openBreaks: reports.reduce((n, r) => n + r.breaks.filter((b) => b.status === 'open').length, 0),
    dataDigest: digest,
  };
  return { csv: Readable.from([csv]), summary: Promise.resolve({ totals, asOf }), done: async () => undefined };
}
