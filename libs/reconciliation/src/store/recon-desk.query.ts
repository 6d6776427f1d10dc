import { sql, type SqlClient } from '@pay/persistence';

/** A day's run as the back office lists it: its summary (as the run left it) and how many breaks stand how. */
export interface RunListRow {
  id: string;
  date: string;
  acquirer: string;
  rail: string;
  ranAt: string;
  ranBy: string;
  summary: Record<string, unknown>;
  breaks: { open: number; resolved: number; cleared: number };
}

/** Runs newest day first (then acquirer, rail), between `from` and `to` (days, inclusive), only those with an open break if asked. */
export async function listRuns(
  db: SqlClient,
  f: { from: string | null; to: string | null; openOnly: boolean; limit: number },
): Promise<RunListRow[]> {
  const rows = await db.query<{
    id: string;
    date: string;
    acquirer: string;
    rail: string;
    ran_at: Date;
    ran_by: string;
    summary: Record<string, unknown>;
    open: number;
    resolved: number;
    cleared: number;
  }>(sql`
    SELECT r.id::text, to_char(r.date, 'YYYY-MM-DD') AS date, r.acquirer, r.rail, r.ran_at, r.ran_by, r.summary,
           count(b.id) FILTER (WHERE b.status = 'open')::int AS open,
           count(b.id) FILTER (WHERE b.status = 'resolved')::int AS resolved,
           count(b.id) FILTER (WHERE b.status = 'cleared')::int AS cleared
      FROM recon_runs r LEFT JOIN recon_breaks b ON b.run_id = r.id
     WHERE (${f.from}::date IS NULL OR r.date >= ${f.from}::date) AND (${f.to}::date IS NULL OR r.date <= ${f.to}::date)
     GROUP BY r.id
    HAVING NOT ${f.openOnly}::boolean OR count(b.id) FILTER (WHERE b.status = 'open') > 0
     ORDER BY r.date DESC, r.acquirer, r.rail
     LIMIT ${f.limit}::int`);
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    acquirer: r.acquirer,
    rail: r.rail,
    ranAt: r.ran_at.toISOString(),
    ranBy: r.ran_by,
    summary: r.summary,
    breaks: { open: r.open, resolved: r.resolved, cleared: r.cleared },
  }));
}

/** The day, acquirer and rail of a run; null when there is no run of that id. */
export async function runKey(
  db: SqlClient,
  runId: string,
): Promise<{ date: string; acquirer: string; rail: string } | null> {
  const [r] = await db.query<{ date: string; acquirer: string; rail: string }>(sql`
    SELECT to_char(date, 'YYYY-MM-DD') AS date, acquirer, rail FROM recon_runs WHERE id = ${runId}::uuid`);
  return r ?? null;
}

/** A break's status and its run; null when there is no break of that id. */
export async function breakState(
  db: SqlClient,
  breakId: string,
): Promise<{ runId: string; status: 'open' | 'resolved' | 'cleared' } | null> {
  const [b] = await db.query<{ run_id: string; status: 'open' | 'resolved' | 'cleared' }>(
    sql`SELECT run_id::text, status FROM recon_breaks WHERE id = ${breakId}::uuid`,
  );
  return b ? { runId: b.run_id, status: b.status } : null;
}

/** Gives a break an owner (whatever its status); false when there is no break of that id. */
export async function assignBreak(db: SqlClient, breakId: string, owner: string): Promise<boolean> {
  return (await db.execute(sql`UPDATE recon_breaks SET owner = ${owner} WHERE id = ${breakId}::uuid`)) === 1;
}

/**
 * Resolves an open break (only an open one: a resolved break keeps its first resolution, a cleared
 * one is no longer found and needs none); its owner, if it had none, becomes who resolved it.
 * False when the break is not open (or not there).
 */
export async function resolveOpenBreak(
  db: SqlClient,
  breakId: string,
  resolution: string,
  by: string,
): Promise<boolean> {
  const n = await db.execute(sql`
    UPDATE recon_breaks SET status = 'resolved', resolution = ${resolution}, resolved_by = ${by}, resolved_at = now(),
           owner = coalesce(owner, ${by})
     WHERE id = ${breakId}::uuid AND status = 'open'`);
  return n === 1;
}

/** The report and statement stored for a day (whether run or not): what was ingested, when, by whom. */
export async function sourcesOf(
  db: SqlClient,
  k: { date: string; acquirer: string; rail: string },
): Promise<
  {
    kind: 'report' | 'statement';
    name: string;
    origin: string;
    lines: number;
    ingestedAt: string;
    ingestedBy: string;
  }[]
> {
  const rows = await db.query<{
    kind: 'report' | 'statement';
    name: string;
    origin: string;
    line_count: number;
    ingested_at: Date;
    ingested_by: string;
  }>(sql`
    SELECT kind, name, origin, line_count, ingested_at, ingested_by FROM recon_sources
     WHERE date = ${k.date}::date AND ((kind = 'report' AND name = ${k.acquirer}) OR (kind = 'statement' AND name = ${k.rail}))
     ORDER BY kind`);
  return rows.map((r) => ({
    kind: r.kind,
    name: r.name,
    origin: r.origin,
    lines: r.line_count,
    ingestedAt: r.ingested_at.toISOString(),
    ingestedBy: r.ingested_by,
  }));
}
