import { sql, sqlClient, type SqlClient } from '@pay/persistence';
import type { Pool } from 'pg';
import type { BreakCode, BreakSide, BreakSubject } from '../matching/recon-types';

export interface BreakView {
  id: string;
  key: string;
  code: BreakCode;
  side: BreakSide;
  subject: BreakSubject;
  reference: string;
  batchId: string | null;
  expectedAmount: string | null;
  actualAmount: string | null;
  expectedDate: string | null;
  actualDate: string | null;
  suspense: string;
  detail: string;
  status: 'open' | 'resolved' | 'cleared';
  owner: string | null;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
}

/** A day's run as it stands: its counts and exact sums (sen, as strings) and its breaks (cleared ones last). */
export interface DayReport {
  date: string;
  acquirer: string;
  rail: string;
  ranAt: string;
  ranBy: string;
  summary: Record<string, unknown>;
  breaks: BreakView[];
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export function readDayReport(
  pool: Pool,
  k: { date: string; acquirer: string; rail: string },
): Promise<DayReport | null> {
  return dayReportOn(sqlClient(pool), k);
}

/** Every run of the Jakarta day (each acquirer and rail), by acquirer then rail, on `db` (a snapshot's, for the export). */
export async function readDayReports(db: SqlClient, date: string): Promise<DayReport[]> {
  const runs = await db.query<{ acquirer: string; rail: string }>(sql`
    SELECT acquirer, rail FROM recon_runs WHERE date = ${date}::date ORDER BY acquirer, rail`);
  const reports: DayReport[] = [];
  for (const r of runs) reports.push((await dayReportOn(db, { date, ...r })) as DayReport);
  return reports;
}

async function dayReportOn(
  db: SqlClient,
  k: { date: string; acquirer: string; rail: string },
): Promise<DayReport | null> {
  const runs = await db.query<{ id: string; summary: Record<string, unknown>; ran_at: Date; ran_by: string }>(sql`
    SELECT id::text, summary, ran_at, ran_by FROM recon_runs
     WHERE date = ${k.date}::date AND acquirer = ${k.acquirer} AND rail = ${k.rail}`);
  if (runs.length === 0) return null;
  const rows = await db.query<{
    id: string;
    key: string;
    code: BreakCode;
    side: BreakSide;
    subject: BreakSubject;
    reference: string;
    batch_id: string | null;
    expected_amount: bigint | null;
    actual_amount: bigint | null;
    expected_date: Date | null;
    actual_date: Date | null;
    suspense: bigint;
    detail: string;
    status: BreakView['status'];
    owner: string | null;
    resolution: string | null;
    resolved_by: string | null;
    resolved_at: Date | null;
  }>(sql`
    SELECT id::text, key, code, side, subject, reference, batch_id, expected_amount, actual_amount, expected_date,
           actual_date, suspense, detail, status, owner, resolution, resolved_by, resolved_at
      FROM recon_breaks WHERE run_id = ${runs[0].id}::uuid
     ORDER BY status = 'cleared', side, code, reference, key`);
  return {
    ...k,
    ranAt: runs[0].ran_at.toISOString(),
    ranBy: runs[0].ran_by,
    summary: runs[0].summary,
    breaks: rows.map((r) => ({
      id: r.id,
      key: r.key,
      code: r.code,
      side: r.side,
      subject: r.subject,
      reference: r.reference,
      batchId: r.batch_id,
      expectedAmount: r.expected_amount?.toString() ?? null,
      actualAmount: r.actual_amount?.toString() ?? null,
      expectedDate: day(r.expected_date),
      actualDate: day(r.actual_date),
      suspense: r.suspense.toString(),
      detail: r.detail,
      status: r.status,
      owner: r.owner,
      resolution: r.resolution,
      resolvedBy: r.resolved_by,
      resolvedAt: r.resolved_at?.toISOString() ?? null,
    })),
  };
}
