import type { Command } from 'commander';
import { booksTrialBalance } from '@pay/backoffice';
import type { PrismaClient } from '@pay/persistence';

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
