import { readFileSync, writeFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import {
  type AcquirerConfig,
  createQrisAcquirer,
  readSnapCredentials,
  SnapBankRail,
  type SnapRailConfig,
} from '@pay/bank-rail';
import {
  type DayReport,
  dayReportCsv,
  parseReportCsv,
  parseStatementCsv,
  type SettlementReport,
  Reconciliation,
  ReconciliationDesk,
  reportOverSnap,
  SourceFormatError,
  SourceUnavailableError,
  type StatementLine,
  statementOverSnap,
} from '@pay/reconciliation';
import type { Pool } from 'pg';

export interface ReconCommandContext {
  pg: () => Pool;
  print: (human: string, data: unknown) => void;
  actor: () => string;
  /** Bad input: the CLI's usage exit code */
  usage: (message: string) => Error;
  /** The SNAP provider (the bank's statement) and the acquirer (its settlement report) of `run --snap` */
  config: { snap: SnapRailConfig | null; acquirer: AcquirerConfig };
}

/** What `run` ingests: each source read from its file or fetched over SNAP, all of it before anything is stored. */
interface Sources {
  report?: { report: SettlementReport; origin: 'csv' | 'snap' };
  statement?: { lines: StatementLine[]; origin: 'csv' | 'snap'; pages?: number };
}

const day = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError('expected a day, YYYY-MM-DD');
  return value;
};
const lag = (value: string) => {
  if (!/^[0-7]$/.test(value)) throw new InvalidArgumentError('expected 0 to 7 days');
  return Number(value);
};

const rupiah = (sen: unknown) => {
  if (sen === null || sen === undefined || sen === '') return '-';
  const n = BigInt(String(sen));
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? '-' : ''}${(abs / 100n).toLocaleString('en-US')}.${(abs % 100n).toString().padStart(2, '0')}`;
};

/** The day's report for a person: counts and exact sums per side, then every break. */
export function describeDayReport(r: DayReport): string {
  const s = r.summary as Record<string, { count?: number; amount?: string; mdr?: string; net?: string }> &
    Record<string, unknown>;
  const side = (label: string, k: string) =>
    `  ${label.padEnd(34)} ${String(s[k]?.count ?? 0).padStart(6)}  ${rupiah(s[k]?.amount).padStart(20)}`;
  const open = r.breaks.filter((b) => b.status !== 'cleared');
  return [
    `reconciliation ${r.date} (acquirer ${r.acquirer}, rail ${r.rail}), run ${r.ranAt} by ${r.ranBy}`,
    `  report ${s.reportIngested ? 'ingested' : 'NOT INGESTED'}, statement ${s.statementIngested ? 'ingested' : 'NOT INGESTED'}`,
    side('ledger pay-ins of the day', 'ledgerPayins'),
    side('report lines (gross)', 'reportLines'),
    `  ${'report lines MDR / net'.padEnd(34)} ${''.padStart(6)}  ${rupiah(s.reportLines?.mdr).padStart(20)} / ${rupiah(s.reportLines?.net)}`,
    side('pay-ins matched', 'matchedPayins'),
    side('statement credits', 'statementCredits'),
    side('statement debits', 'statementDebits'),
    side('payouts confirmed', 'ledgerPayouts'),
    side('rail fees in the books', 'ledgerRailFees'),
    `  suspense booked: ${rupiah(s.suspense)}`,
    `${open.length} break(s)${open.length ? ':' : ''}`,
    ...open.map(
      (b) =>
        `  ${b.id}  ${b.status.padEnd(8)} ${b.code.padEnd(20)} ${b.subject.padEnd(14)} ${b.reference}  expected ${rupiah(b.expectedAmount)}${b.expectedDate ? ` ${b.expectedDate}` : ''}, found ${rupiah(b.actualAmount)}${b.actualDate ? ` ${b.actualDate}` : ''}, suspense ${rupiah(b.suspense)}${b.owner ? `, owner ${b.owner}` : ''}${b.resolution ? `, resolved: ${b.resolution}` : ''} (${b.detail})`,
    ),
  ].join('\n');
}

/** The acquirer's settlement report of the day over SNAP (QRIS_ACQUIRER=snap), read. */
async function reportOf(ctx: ReconCommandContext, date: string): Promise<SettlementReport> {
  const acquirer = createQrisAcquirer(ctx.config.acquirer);
  if (!acquirer)
    throw ctx.usage(
      "the acquirer's report over SNAP needs QRIS_ACQUIRER=snap, SNAP_ACQUIRER_MERCHANT_ID and the acquirer's SNAP settings (SNAP_* or SNAP_ACQUIRER_*)",
    );
  try {
    return await reportOverSnap(acquirer, date);
  } finally {
    acquirer.close();
  }
}

/** The bank's statement of the day over SNAP 14, every page, read (only the day's lines kept). */
async function statementOf(ctx: ReconCommandContext, date: string): Promise<Sources['statement']> {
  const snap = ctx.config.snap;
  if (!snap?.sourceAccountNo)
    throw ctx.usage(
      "the bank's statement over SNAP needs SNAP_BASE_URL, SNAP_CLIENT_ID, SNAP_PRIVATE_KEY_FILE, SNAP_CHANNEL_ID and SNAP_SOURCE_ACCOUNT_NO (and SNAP_CLIENT_SECRET_FILE when symmetric)",
    );
  let credentials;
  try {
    credentials = readSnapCredentials(snap.files);
  } catch (err) {
    throw ctx.usage((err as Error).message);
  }
  // Not live: a statement moves no money, and no transfer is ever sent from here.
  const rail = new SnapBankRail(ctx.pg(), snap, credentials, false);
  try {
    return { ...(await statementOverSnap(rail, date)), origin: 'snap' };
  } finally {
    rail.close();
  }
}

/**
 * `recon run|show|assign|resolve`: the three-way reconciliation of a day (docs/operations/reconciliation.md).
 * The report and the statement come from CSV files or over SNAP (`--snap`, or `snap` for either).
 */
export function registerReconCommands(program: Command, ctx: ReconCommandContext): void {
  const recon = program
    .command('recon')
    .description("three-way reconciliation: the acquirer's report, the bank's statement, the ledger");
  const settingsOf = (o: { acquirer: string; rail: string; lag: number }) => ({
    acquirer: o.acquirer,
    rail: o.rail,
    settlementLagDays: o.lag,
  });
  const withSettings = (c: Command) =>
    c
      .option('--acquirer <name>', "the acquirer's account in the books (qris; sandbox for the simulator)", 'qris')
      .option('--rail <name>', 'the rail whose bank account the statement is of', 'snap')
      .option('--lag <days>', "T+n: the settlement date expected of a day's pay-ins", lag, 1);
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw ctx.usage(`cannot read ${file}: ${(err as Error).message}`);
    }
  };

  withSettings(
    recon
      .command('run')
      .description(
        "reconcile a day: ingest the report and statement given (files, or fetched over SNAP), match, book what matched (once), print the day's report",
      )
      .requiredOption('--date <YYYY-MM-DD>', 'the Jakarta day', day)
      .option(
        '--report <file.csv|snap>',
        "the acquirer's settlement report of the day's pay-ins: a CSV file, or `snap`",
      )
      .option(
        '--statement <file.csv|snap>',
        "the bank's statement (a CSV file, or `snap`: SNAP 14); only the day's lines are kept",
      )
      .option('--snap', 'both over SNAP: --report snap --statement snap')
      .option('--csv <file.csv>', "also write the day's report as CSV"),
  ).action(
    async (o: {
      date: string;
      report?: string;
      statement?: string;
      snap?: boolean;
      csv?: string;
      acquirer: string;
      rail: string;
      lag: number;
    }) => {
      if (o.snap && ((o.report && o.report !== 'snap') || (o.statement && o.statement !== 'snap')))
        throw ctx.usage('--snap fetches both the report and the statement: give files or --snap, not both');
      const overSnap = (source?: string) => Boolean(o.snap) || source === 'snap';
      // Everything fetched and read before anything is stored: a bank that fails leaves the day as it was.
      const sources: Sources = {};
      try {
        if (overSnap(o.report)) sources.report = { report: await reportOf(ctx, o.date), origin: 'snap' };
        else if (o.report) sources.report = { report: parseReportCsv(read(o.report)), origin: 'csv' };
        if (overSnap(o.statement)) sources.statement = await statementOf(ctx, o.date);
        else if (o.statement)
          sources.statement = { lines: parseStatementCsv(read(o.statement), o.date), origin: 'csv' };
      } catch (err) {
        if (err instanceof SourceFormatError) throw ctx.usage(err.message);
        if (err instanceof SourceUnavailableError)
          throw new SourceUnavailableError(`${err.message}; nothing was stored, run it again later`);
        throw err;
      }
      const r = new Reconciliation(ctx.pg(), settingsOf(o));
      if (sources.report) await r.ingestReport(o.date, sources.report.report, sources.report.origin, ctx.actor());
      if (sources.statement)
        await r.ingestStatement(o.date, sources.statement.lines, sources.statement.origin, ctx.actor());
      const report = await r.run(o.date, ctx.actor());
      if (o.csv) writeFileSync(o.csv, dayReportCsv(report));
      const fetched = [
        sources.report?.origin === 'snap'
          ? `the report over SNAP: ${sources.report.report.lines.length} line(s)${sources.report.report.refunds.length ? `, ${sources.report.report.refunds.length} refund line(s)` : ''}`
          : null,
        sources.statement?.origin === 'snap'
          ? `the statement over SNAP: ${sources.statement.lines.length} line(s) of the day in ${sources.statement.pages} page(s)`
          : null,
      ].filter(Boolean);
      ctx.print(
        [...(fetched.length ? [`fetched ${fetched.join('; ')}`] : []), describeDayReport(report)].join('\n'),
        report,
      );
    },
  );

  withSettings(
    recon
      .command('show')
      .description("the day's report as its last run left it")
      .requiredOption('--date <YYYY-MM-DD>', 'the Jakarta day', day)
      .option('--csv <file.csv>', 'write it as CSV'),
  ).action(async (o: { date: string; csv?: string; acquirer: string; rail: string; lag: number }) => {
    const report = await new Reconciliation(ctx.pg(), settingsOf(o)).dayReport(o.date);
    if (!report) throw ctx.usage(`no reconciliation of ${o.date} for ${o.acquirer}/${o.rail}: run it first`);
    if (o.csv) writeFileSync(o.csv, dayReportCsv(report));
    ctx.print(describeDayReport(report), report);
  });

  // The same use case as the ops API and the console: the same bounds on owner and note, 404 and 409 alike.
  const desk = () => new ReconciliationDesk(ctx.pg());
  recon
    .command('assign <breakId> <owner>')
    .description('give a break an owner')
    .action(async (breakId: string, owner: string) => {
      const b = await desk().assign(breakId, owner);
      ctx.print(`break ${breakId}: owner ${b.owner}`, { breakId, owner: b.owner });
    });
  recon
    .command('resolve <breakId>')
    .description('resolve an open break with a note of what was done')
    .requiredOption('--note <text>', 'the resolution')
    .action(async (breakId: string, o: { note: string }) => {
      const b = await desk().resolve(breakId, o.note, ctx.actor());
      ctx.print(`break ${breakId}: resolved`, { breakId, resolution: b.resolution });
    });
}
