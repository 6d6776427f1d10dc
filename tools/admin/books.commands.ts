import { once } from 'node:events';
import type { Command } from 'commander';
import { BooksExports, booksTrialBalance } from '@pay/backoffice';
import type { BooksExportView } from '@pay/contracts/dashboard';
import { type PrismaClient, ReconExportRepository } from '@pay/persistence';
import { createLogger, createRedis, ObjectStore, ReconExportProducer, TransientError } from '@pay/platform';
import type { AdminConfig } from './admin.config';

export interface BooksCommandContext {
  db: () => PrismaClient;
  print: (human: string, data: unknown) => void;
}

const rupiah = (n: number) =>
  n === 0 ? '' : n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `ledger trial-balance`: the platform's books, every account's debit or credit and the totals (decision 0049). */
export function registerBooksCommands(ledger: Command, ctx: BooksCommandContext): void {
  ledger
    .command('trial-balance')
    .description(
      "the platform's books: every account's balance as a debit or a credit, and the totals, which are equal when the books balance",
    )
    .option('--date <YYYY-MM-DD>', 'at the close of this day in Asia/Jakarta (default: now)')
    .action(async (o: { date?: string }) => {
      const tb = await booksTrialBalance(ctx.db(), { date: o.date });
      const width = Math.max(28, ...tb.lines.map((l) => l.account.length));
      const row = (a: string, k: string, d: string, c: string) =>
        `${a.padEnd(width)}  ${k.padEnd(9)}  ${d.padStart(20)}  ${c.padStart(20)}`;
      ctx.print(
        [
          `trial balance ${tb.asOf ? `at the close of ${tb.asOf} (Asia/Jakarta)` : 'now'}: ${tb.entries} journal entries, ${tb.balanced ? 'balanced' : 'NOT BALANCED'}`,
          row('account', 'kind', 'debit', 'credit'),
          ...tb.lines.map((l) => row(l.account, l.kind, rupiah(l.debit), rupiah(l.credit))),
          row('total', '', rupiah(tb.totalDebit) || '0.00', rupiah(tb.totalCredit) || '0.00'),
        ].join('\n'),
        tb,
      );
    });
}

export interface BooksExportCommandContext extends BooksCommandContext {
  config: Pick<AdminConfig, 'redis' | 'queues' | 'storage'>;
}

/** How long `books export --wait` waits for the workers, and how often it looks. */
const WAIT_MS = 10 * 60_000;
const POLL_MS = 1_000;

/**
 * `books export --date --kind [--wait]`: the finance export of a day (journal, trial-balance or
 * reconciliation; BooksExports, as the ops API's
 * POST /ops/books/exports), queued for the workers; asked again, the same export. With --wait, until
 * it is built: the presigned URL.
 */
export function registerBooksExportCommand(program: Command, ctx: BooksExportCommandContext): void {
  program
    .command('books')
    .description("the platform's books as files")
    .command('export')
    .description(
      "the day's journal (every posting of its entries), the trial balance at its close, or the day's reconciliation report (every run: counts, exact sums, breaks), as CSV built by the workers; prints the download URL once ready",
    )
    .requiredOption('--date <YYYY-MM-DD>', 'the day in Asia/Jakarta')
    .requiredOption('--kind <kind>', 'journal, trial-balance or reconciliation')
    .option('--wait', 'wait until the file is built (up to 10 minutes) and print its URL')
    .action(async (o: { date: string; kind: string; wait?: boolean }) => {
      const redis = createRedis(ctx.config.redis.url, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined); // reported by the wait for it below
      const producer = new ReconExportProducer(redis, ctx.config.queues.prefix, createLogger('admin', 'error'));
      try {
        await Promise.race([
          once(redis, 'ready'),
          new Promise((_, reject) =>
            setTimeout(
              () => reject(new TransientError(`Redis is not reachable at ${redactedUrl(ctx.config.redis.url)}`)),
              10_000,
            ).unref(),
          ),
        ]);
        const exports = new BooksExports(
          new ReconExportRepository(ctx.db()),
          new ObjectStore(ctx.config.storage),
          producer,
        );
        let e = await exports.request({ date: o.date, kind: o.kind });
        const until = Date.now() + WAIT_MS;
        while (o.wait && (e.status === 'queued' || e.status === 'running') && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          e = await exports.get(e.id);
        }
        if (e.status === 'failed')
          throw new Error(
            `${e.kind} export of ${e.date} failed: ${e.error ?? 'unknown'}; run the command again to start a new one`,
          );
        ctx.print(describeExport(e), e);
      } finally {
        await producer.close();
        redis.disconnect();
      }
    });
}

function describeExport(e: BooksExportView): string {
  const head = `${e.kind} of ${e.date}: export ${e.id} ${e.status}`;
  if (e.status !== 'ready') return `${head}; run the command again (or with --wait) for the URL`;
  if (e.kind === 'reconciliation')
    return `${head}: ${e.entries} runs, ${e.rows} rows, ${e.openBreaks} open breaks\n${e.url}`;
  const totals = `${e.rows} rows, ${e.entries} journal entries, debits ${e.totalDebit} = credits ${e.totalCredit}${e.balanced ? '' : ' NOT BALANCED'}`;
  return `${head}: ${totals}\n${e.url}`;
}

const redactedUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
