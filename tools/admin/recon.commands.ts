import { readFileSync, writeFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import {
  type DayReport,
  dayReportCsv,
  parseReportCsv,
  parseStatementCsv,
  Reconciliation,
  SourceFormatError,
} from '@pay/reconciliation';
import type { Pool } from 'pg';

export interface ReconCommandContext {
  pg: () => Pool;
  print: (human: string, data: unknown) => void;
  actor: () => string;
  /** Bad input: the CLI's usage exit code */
  usage: (message: string) => Error;
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

/**
 * `recon run|show|assign|resolve`: the three-way reconciliation of a day (docs/operations/reconciliation.md).
 * The CLI ingests CSV files; a report or statement fetched over SNAP is ingested by the same use case.
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
      .description("reconcile a day: ingest the files given, match, book what matched (once), print the day's report")
      .requiredOption('--date <YYYY-MM-DD>', 'the Jakarta day', day)
      .option('--report <file.csv>', "the acquirer's settlement report of the day's pay-ins (CSV)")
      .option('--statement <file.csv>', "the bank's statement (CSV); only the day's lines are kept")
      .option('--csv <file.csv>', "also write the day's report as CSV"),
  ).action(
    async (o: {
      date: string;
      report?: string;
      statement?: string;
      csv?: string;
      acquirer: string;
      rail: string;
      lag: number;
    }) => {
      const r = new Reconciliation(ctx.pg(), settingsOf(o));
      try {
        if (o.report) await r.ingestReport(o.date, parseReportCsv(read(o.report)), 'csv', ctx.actor());
        if (o.statement)
          await r.ingestStatement(o.date, parseStatementCsv(read(o.statement), o.date), 'csv', ctx.actor());
      } catch (err) {
        if (err instanceof SourceFormatError) throw ctx.usage(err.message);
        throw err;
      }
      const report = await r.run(o.date, ctx.actor());
      if (o.csv) writeFileSync(o.csv, dayReportCsv(report));
      ctx.print(describeDayReport(report), report);
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

  const settingsFree = () => new Reconciliation(ctx.pg(), { acquirer: 'qris', rail: 'snap', settlementLagDays: 1 });
  recon
    .command('assign <breakId> <owner>')
    .description('give a break an owner')
    .action(async (breakId: string, owner: string) => {
      if (!(await settingsFree().assign(breakId, owner))) throw ctx.usage(`no break ${breakId}`);
      ctx.print(`break ${breakId}: owner ${owner}`, { breakId, owner });
    });
  recon
    .command('resolve <breakId>')
    .description('resolve a break with a note of what was done')
    .requiredOption('--note <text>', 'the resolution')
    .action(async (breakId: string, o: { note: string }) => {
      if (!(await settingsFree().resolve(breakId, o.note, ctx.actor()))) throw ctx.usage(`no open break ${breakId}`);
      ctx.print(`break ${breakId}: resolved`, { breakId, resolution: o.note });
    });
}
