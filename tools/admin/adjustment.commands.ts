import { randomUUID } from 'node:crypto';
import { adjustmentView, type BookAdjustments, cliAuditAs } from '@pay/backoffice';
import type { Adjustment, AdjustmentStatus } from '@pay/persistence';
import { type Command, InvalidArgumentError } from 'commander';

export interface AdjustmentCommandContext {
  adjustments: () => BookAdjustments;
  merchantId: (value: string) => number;
  print: (human: string, data: unknown) => void;
}

const STATUSES = ['requested', 'approved', 'rejected', 'expired'];

/** `--line account=amount`, repeatable: the account is everything before the last `=`. */
function collectLine(value: string, lines: { account: string; amount: string }[]) {
  const at = value.lastIndexOf('=');
  if (at <= 0) throw new InvalidArgumentError('expected account=amount, e.g. merchant:7:available=-1500');
  return [...lines, { account: value.slice(0, at), amount: value.slice(at + 1) }];
}

function describe(a: Adjustment): string {
  const view = adjustmentView(a);
  const lines = view.postings.map((p) => `  ${p.account.padEnd(32)} ${String(p.amount).padStart(16)}`);
  const ledger = view.ledger
    ? `; ledger: ${view.ledger.outcome}${view.ledger.reason ? ` (${view.ledger.reason})` : ''}`
    : '';
  const decided = view.decidedByName
    ? ` by ${view.decidedByName}${view.decisionNote ? ` (${view.decisionNote})` : ''}`
    : '';
  return [
    `adjustment ${view.id} ${view.merchantId === null ? 'platform' : `merchant ${view.merchantId}`}: ${view.status}${decided}${ledger}`,
    `  asked by ${view.requestedByName} at ${view.requestedAt}, expires ${view.expiresAt}: ${view.reason}`,
    ...lines,
  ].join('\n');
}

/**
 * `adjustment request|approve|reject|list|show`: manual adjustments of the books, maker-checker
 * (the ops API's and the console's too). The CLI acts as `cli:<os user>@<host>`: another OS user
 * (or an operator of the console) approves what it asked. Each step writes its audit row with it.
 */
export function registerAdjustmentCommands(program: Command, ctx: AdjustmentCommandContext): void {
  const adjustment = program
    .command('adjustment')
    .description('manual adjustments of the books: one operator asks, another approves or rejects');
  adjustment
    .command('request')
    .description(
      "ask for an adjustment: lines in Rupiah, a debit positive and a credit negative, summing to 0; a merchant's only its available (name it with --merchant)",
    )
    .option(
      '--merchant <id>',
      "the merchant whose available it moves (absent: the platform's own accounts)",
      ctx.merchantId,
    )
    .requiredOption(
      '--line <account=amount>',
      'one line, repeated: e.g. --line expense:adjustments=1500 --line merchant:7:available=-1500',
      collectLine,
      [],
    )
    .requiredOption('--reason <text>', 'why (kept with the adjustment, the ledger entry and the audit log)')
    .action(async (o: { merchant?: number; line: { account: string; amount: string }[]; reason: string }) => {
      const a = await ctx
        .adjustments()
        .request({ merchantId: o.merchant ?? null, postings: o.line, reason: o.reason }, cliAuditAs(randomUUID()));
      ctx.print(
        `requested; another operator approves it: admin adjustment approve ${a.id}\n${describe(a)}`,
        adjustmentView(a),
      );
    });
  adjustment
    .command('approve <id>')
    .description('approve a request of another operator: the ledger books it (or refuses it: see list)')
    .option('--note <text>', 'a note kept with the decision')
    .action(async (id: string, o: { note?: string }) => {
      const a = await ctx.adjustments().approve(id, o.note, cliAuditAs(randomUUID()));
      ctx.print(`approved\n${describe(a)}`, adjustmentView(a));
    });
  adjustment
    .command('reject <id>')
    .description('reject a request of another operator: nothing is booked')
    .requiredOption('--note <text>', 'why')
    .action(async (id: string, o: { note: string }) => {
      const a = await ctx.adjustments().reject(id, o.note, cliAuditAs(randomUUID()));
      ctx.print(`rejected\n${describe(a)}`, adjustmentView(a));
    });
  adjustment
    .command('list')
    .description("adjustments, newest first, with their status and the ledger's outcome once approved")
    .option('--status <status>', STATUSES.join(' | '), (v: string) => {
      if (!STATUSES.includes(v)) throw new InvalidArgumentError(`expected one of ${STATUSES.join(', ')}`);
      return v as AdjustmentStatus;
    })
    .option('--merchant <id>', "only this merchant's", ctx.merchantId)
    .option('--limit <n>', '1 to 500 (default 100)', (v: string) => {
      if (!/^[1-9]\d{0,2}$/.test(v) || Number(v) > 500) throw new InvalidArgumentError('expected 1 to 500');
      return Number(v);
    })
    .action(async (o: { status?: AdjustmentStatus; merchant?: number; limit?: number }) => {
      const rows = await ctx.adjustments().list({ status: o.status, merchantId: o.merchant, limit: o.limit });
      ctx.print(rows.length ? rows.map(describe).join('\n') : 'no adjustments', rows.map(adjustmentView));
    });
  adjustment
    .command('show <id>')
    .description('one adjustment')
    .action(async (id: string) => {
      const a = await ctx.adjustments().get(id);
      ctx.print(describe(a), adjustmentView(a));
    });
}
