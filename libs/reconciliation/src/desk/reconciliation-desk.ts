import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import type {
  ReconBreakView,
  ReconDayReportView,
  ReconRunView,
  ReconSideView,
  ReconSourceView,
} from '@pay/contracts/dashboard';
import { formatAmount, parseReconDate } from '@pay/domain';
import { sql, type SqlClient, sqlClient } from '@pay/persistence';
import type { Pool } from 'pg';
import { Reconciliation } from '../reconciliation';
import { parseReportCsv, parseStatementCsv, SourceFormatError } from '../sources/parse-sources';
import { type BreakView, type DayReport } from '../store/day-report.query';
import {
  assignBreak,
  breakState,
  listRuns,
  resolveOpenBreak,
  type RunListRow,
  runKey,
  sourcesOf,
} from '../store/recon-desk.query';

const invalidInput = (field: string, message: string) =>
  new BackofficeError(BackofficeErrorCode.InvalidInput, message, field);

/** A resolution note, an owner: trimmed, then at most this long. */
export const RECON_NOTE_MAX = 500;
export const RECON_OWNER_MAX = 200;
/** Runs listed at once (default, at most). */
const LIST_DEFAULT = 60;
const LIST_MAX = 366;
/** The day reconciled is read with this lag unless told (docs/operations/reconciliation.md: T+1). */
export const RECON_DEFAULT_LAG_DAYS = 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** A day's run, a break, a source and a day's report as every face shows them (the console's views: amounts in Rupiah). */
export type ReconRunSummary = ReconRunView;
export type ReconBreak = ReconBreakView;
export type ReconSource = ReconSourceView;
export type ReconDayReport = ReconDayReportView;
type ReconSide = ReconSideView;

/** Which day: a Jakarta day (today or before), an acquirer and a rail as the books name them. */
export interface ReconDayInput {
  date: string;
  acquirer?: string;
  rail?: string;
}

/**
 * The back office's reconciliation desk (docs/operations/reconciliation.md), every face's (the ops
 * API and the console's Reconciliation page; the admin CLI's `recon` can share it): the days' runs
 * and their reports, a break's owner and resolution, a day run again over the sources it has, a CSV
 * report or statement ingested. Who acts (`by`) is the face's actor, `operator:<id>`, `ops-api` or
 * the CLI's; the faces write the audit row. Each refusal a BackofficeError: input (the field
 * named), 404 RECON_NOT_FOUND, 409 CONFLICT (a break not open resolved).
 *
 * A back-office use case living here rather than in libs/backoffice: this library's int spec stands
 * on @pay/testing, which stands on @pay/backoffice, so libs/backoffice importing this library would
 * make a cycle of projects.
 */
export class ReconciliationDesk {
  private readonly db: SqlClient;

  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = sqlClient(pool);
  }

  /** Newest day first; `from`/`to` days inclusive; `open`: only runs with a break still open. */
  async list(filter: { from?: string; to?: string; open?: boolean; limit?: number } = {}): Promise<ReconRunSummary[]> {
    const from = filter.from ? this.day(filter.from, 'from') : null;
    const to = filter.to ? this.day(filter.to, 'to') : null;
    if (from && to && from > to) throw invalidInput('from', 'from must not be after to');
    const limit = Math.min(Math.max(filter.limit ?? LIST_DEFAULT, 1), LIST_MAX);
    const rows = await listRuns(this.db, { from, to, openOnly: filter.open === true, limit });
    const names = await this.namesOf(rows.map((r) => r.ranBy));
    return rows.map((r) => runSummary(r, names));
  }

  /** The day's report of a run (by its id). */
  async report(runId: string): Promise<ReconDayReport> {
    const key = UUID.test(runId) ? await runKey(this.db, runId) : null;
    if (!key) throw notFound('run');
    return this.reportOf({ ...key, settlementLagDays: RECON_DEFAULT_LAG_DAYS });
  }

  /**
   * Reconciles a day (again) with the sources ingested for it: the same breaks found again keep
   * their owner and resolution, ones no longer found are cleared, nothing is booked twice.
   */
  async run(input: ReconDayInput & { settlementLagDays?: number }, by: string): Promise<ReconDayReport> {
    const settings = this.settings(input);
    const date = this.day(input.date, 'date');
    const lag = input.settlementLagDays ?? RECON_DEFAULT_LAG_DAYS;
    if (!(Number.isInteger(lag) && lag >= 0 && lag <= 7))
      throw invalidInput('settlementLagDays', 'settlementLagDays must be a whole number of days, 0 to 7');
    const sources = await sourcesOf(this.db, { date, ...settings });
    if (sources.length === 0)
      throw invalidInput(
        'date',
        `nothing is ingested for ${date} (${settings.acquirer}/${settings.rail}): upload the report or the statement first`,
      );
    const recon = new Reconciliation(this.pool, { ...settings, settlementLagDays: lag }, this.now);
    const report = await recon.run(date, by);
    return this.view(report, sources);
  }

  /**
   * Stores a day's settlement report (of the acquirer) or bank statement (of the rail) from its CSV,
   * replacing what the day had: refused whole, every bad line named, when a line cannot be read.
   * The CSV is its text (`csv`, the CLI's file) or its lines (`lines`, the API's: no string there
   * holds a line break). The day is not run: run it once both are in (or with one).
   */
  async ingestCsv(
    input: ReconDayInput & { kind: string } & ({ csv: string } | { lines: readonly string[] }),
    by: string,
  ): Promise<ReconSource> {
    const settings = this.settings(input);
    const date = this.day(input.date, 'date');
    if (input.kind !== 'report' && input.kind !== 'statement')
      throw invalidInput('kind', "kind must be report (the acquirer's settlement report) or statement (the bank's)");
    const field = 'lines' in input ? 'lines' : 'csv';
    const text =
      'lines' in input ? (Array.isArray(input.lines) ? input.lines.join('\n') : '') : String(input.csv ?? '');
    if (!text.trim()) throw invalidInput(field, `${field} is empty: give the file, its header row first`);
    const recon = new Reconciliation(this.pool, { ...settings, settlementLagDays: RECON_DEFAULT_LAG_DAYS }, this.now);
    try {
      if (input.kind === 'report') await recon.ingestReport(date, parseReportCsv(text), 'csv', by);
      else await recon.ingestStatement(date, parseStatementCsv(text, date), 'csv', by);
    } catch (err) {
      if (err instanceof SourceFormatError) throw invalidInput(field, unreadable(err.problems));
      throw err;
    }
    const stored = (await sourcesOf(this.db, { date, ...settings })).find((s) => s.kind === input.kind);
    return stored as ReconSource;
  }

  /** Gives a break an owner (a person or a team, as finance names them). */
  async assign(breakId: string, owner: string): Promise<ReconBreak> {
    const who = bounded(owner, 'owner', RECON_OWNER_MAX, 'owner must name who follows the break up');
    const state = UUID.test(breakId) ? await breakState(this.db, breakId) : null;
    if (!state || !(await assignBreak(this.db, breakId, who))) throw notFound('break');
    return this.breakOf(state.runId, breakId);
  }

  /** Resolves an open break with a note of what was done (an adjustment asked for, the acquirer's correction...). */
  async resolve(breakId: string, note: string, by: string): Promise<ReconBreak> {
    const resolution = bounded(note, 'note', RECON_NOTE_MAX, 'note must say how the break was resolved');
    const state = UUID.test(breakId) ? await breakState(this.db, breakId) : null;
    if (!state) throw notFound('break');
    if (!(await resolveOpenBreak(this.db, breakId, resolution, by))) {
      const now = (await breakState(this.db, breakId))?.status ?? state.status;
      throw new BackofficeError(
        BackofficeErrorCode.Conflict,
        now === 'resolved'
          ? 'This break is resolved already: its resolution stays as first given'
          : 'This break is cleared: the last run no longer found it, so there is nothing to resolve',
      );
    }
    return this.breakOf(state.runId, breakId);
  }

  private async breakOf(runId: string, breakId: string): Promise<ReconBreak> {
    const { breaks } = await this.report(runId);
    return breaks.find((b) => b.id === breakId) as ReconBreak;
  }

  private async reportOf(settings: {
    date: string;
    acquirer: string;
    rail: string;
    settlementLagDays: number;
  }): Promise<ReconDayReport> {
    const report = await new Reconciliation(this.pool, settings, this.now).dayReport(settings.date);
    if (!report) throw notFound('run');
    return this.view(report, await sourcesOf(this.db, settings));
  }

  private async view(report: DayReport, sources: ReconSource[]): Promise<ReconDayReport> {
    const names = await this.namesOf([report.ranBy, ...report.breaks.map((b) => b.resolvedBy ?? '')]);
    const runs = await listRuns(this.db, { from: report.date, to: report.date, openOnly: false, limit: LIST_MAX });
    const run = runs.find((r) => r.acquirer === report.acquirer && r.rail === report.rail) as RunListRow;
    return {
      run: runSummary(run, names),
      sources,
      breaks: report.breaks.map((b) => breakView(b, names)),
    };
  }

  private settings(input: ReconDayInput): { acquirer: string; rail: string } {
    const acquirer = input.acquirer ?? 'qris';
    const rail = input.rail ?? 'snap';
    if (!NAME.test(acquirer))
      throw invalidInput('acquirer', "acquirer must be the acquirer's account name in the books (qris, sandbox)");
    if (!NAME.test(rail)) throw invalidInput('rail', "rail must be the rail's name in the books (snap)");
    return { acquirer, rail };
  }

  private day(text: string, field: string): string {
    const day = parseReconDate(String(text ?? ''), this.now());
    if (!day.ok) throw invalidInput(field, `${field} ${day.problem}`);
    return day.date;
  }

  /** The email of each `operator:<id>` actor (the others are shown as they are). */
  private async namesOf(actors: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(actors.map((a) => /^operator:(\d{1,10})$/.exec(a)?.[1]).filter((id) => id !== undefined))];
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<{ id: string; email: string }>(
      sql`SELECT id::text, email FROM dashboard_users WHERE id = ANY(${ids.map(Number)}::int[])`,
    );
    return new Map(rows.map((r) => [`operator:${r.id}`, r.email]));
  }
}

const notFound = (what: 'run' | 'break') =>
  new BackofficeError(
    BackofficeErrorCode.ReconNotFound,
    what === 'run' ? 'Reconciliation run not found' : 'Reconciliation break not found',
  );

function bounded(value: unknown, field: string, max: number, missing: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw invalidInput(field, missing);
  if (text.length > max) throw invalidInput(field, `${field} must be at most ${max} characters`);
  return text;
}

/** Every bad line named (the first 50, then how many more). */
function unreadable(problems: string[]): string {
  const shown = problems.slice(0, 50).join('; ');
  return `the file was not stored, ${problems.length} problem(s): ${shown}${problems.length > 50 ? `; and ${problems.length - 50} more` : ''}`;
}

const rupiah = (sen: unknown): number =>
  formatAmount(BigInt(typeof sen === 'string' || typeof sen === 'number' ? sen : 0));
const nullableRupiah = (sen: string | null) => (sen === null ? null : rupiah(sen));

function runSummary(r: RunListRow, names: Map<string, string>): ReconRunSummary {
  const s = r.summary as Record<string, { count?: number; amount?: string; mdr?: string; net?: string } | undefined>;
  const ingested = r.summary as { reportIngested?: unknown; statementIngested?: unknown };
  const side = (k: string): ReconSide => ({ count: Number(s[k]?.count ?? 0), amount: rupiah(s[k]?.amount) });
  return {
    id: r.id,
    date: r.date,
    acquirer: r.acquirer,
    rail: r.rail,
    ranAt: r.ranAt,
    ranBy: r.ranBy,
    ranByName: names.get(r.ranBy) ?? r.ranBy,
    reportIngested: ingested.reportIngested === true,
    statementIngested: ingested.statementIngested === true,
    sides: {
      ledgerPayins: side('ledgerPayins'),
      reportLines: { ...side('reportLines'), mdr: rupiah(s.reportLines?.mdr), net: rupiah(s.reportLines?.net) },
      matchedPayins: side('matchedPayins'),
      statementCredits: side('statementCredits'),
      statementDebits: side('statementDebits'),
      ledgerPayouts: side('ledgerPayouts'),
      ledgerRailFees: side('ledgerRailFees'),
    },
    suspense: rupiah(r.summary.suspense),
    breaks: r.breaks,
  };
}

function breakView(b: BreakView, names: Map<string, string>): ReconBreak {
  return {
    id: b.id,
    code: b.code,
    side: b.side,
    subject: b.subject,
    reference: b.reference,
    batchId: b.batchId,
    expectedAmount: nullableRupiah(b.expectedAmount),
    actualAmount: nullableRupiah(b.actualAmount),
    expectedDate: b.expectedDate,
    actualDate: b.actualDate,
    suspense: rupiah(b.suspense),
    detail: b.detail,
    status: b.status,
    owner: b.owner,
    resolution: b.resolution,
    resolvedBy: b.resolvedBy,
    resolvedByName: b.resolvedBy === null ? null : (names.get(b.resolvedBy) ?? b.resolvedBy),
    resolvedAt: b.resolvedAt,
  };
}
