import type { Command } from 'commander';
import type { DeadLetterActions } from '@pay/backoffice';
import { type DeadLetter, type DeadLetterStatus, deadLetterView } from '@pay/persistence';

export interface DeadLetterCommandContext {
  letters: () => DeadLetterActions;
  print: (human: string, data: unknown) => void;
  /** Throws the CLI's usage error (exit code 2, nothing changed). */
  usage: (message: string) => never;
}

const STATUSES = ['open', 'replayed', 'resolved', 'all'] as const;

function letterId(value: string, ctx: DeadLetterCommandContext): bigint {
  if (!/^[1-9]\d{0,18}$/.test(value)) ctx.usage(`expected a dead letter id (a positive integer), got "${value}"`);
  return BigInt(value);
}

const line = (d: DeadLetter): string =>
  `${d.id}\t${d.status}\t${d.deadLetteredAt.toISOString()}\t${d.topic}\t${d.consumerGroup}\tkey ${d.key}\t${d.fault}: ${d.error.slice(0, 120)}`;

/** `dlq list | show | replay | resolve`: the operators' side of dead letters (runbook in the README). */
export function registerDeadLetterCommands(program: Command, ctx: DeadLetterCommandContext): void {
  const dlq = program
    .command('dlq')
    .description('dead letters: bus records a consumer could never process (archived from <topic>.dlq)');
  dlq
    .command('list')
    .description('dead letters, oldest first (default: the open ones)')
    .option('--topic <topic>', 'only this original topic, e.g. ledger.commands.v1')
    .option('--status <status>', `one of ${STATUSES.join(', ')}`, 'open')
    .option('--limit <n>', 'at most this many (1-1000)', '100')
    .action(async (o: { topic?: string; status: string; limit: string }) => {
      if (!(STATUSES as readonly string[]).includes(o.status))
        ctx.usage(`--status must be one of ${STATUSES.join(', ')}`);
      const limit = Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) ctx.usage('--limit must be an integer from 1 to 1000');
      const letters = await ctx.letters().list({ topic: o.topic, status: o.status as DeadLetterStatus | 'all', limit });
      ctx.print(
        letters.map(line).join('\n') || `(no ${o.status === 'all' ? '' : o.status + ' '}dead letters)`,
        letters.map((d) => deadLetterView(d)),
      );
    });
  dlq.command('show <id>').action(async (id: string) => {
    const d = await ctx.letters().find(letterId(id, ctx));
    if (!d) ctx.usage(`no dead letter ${id}`);
    ctx.print(JSON.stringify(deadLetterView(d), null, 2), deadLetterView(d));
  });
  dlq
    .command('replay <ids...>')
    .description(
      'put a copy of each record back on its topic (through the outbox); safe because consumers are idempotent',
    )
    .action(async (ids: string[]) => {
      const parsed = ids.map((id) => letterId(id, ctx));
      const results = [];
      for (const id of parsed) {
        const r = await ctx.letters().replay(id);
        if (r.outcome === 'not-found') ctx.usage(`no dead letter ${id}`);
        results.push({
          id: id.toString(),
          outcome: r.outcome,
          status: r.deadLetter.status,
          outboxId: r.deadLetter.replayOutboxId?.toString() ?? null,
        });
      }
      const human = results.map((r) =>
        r.outcome === 'replayed'
          ? `dead letter ${r.id} replayed (outbox ${r.outboxId})`
          : r.outcome === 'not-json'
            ? `dead letter ${r.id} NOT replayed: its value is not JSON and can never be processed; fix the producer, then "dlq resolve ${r.id}"`
            : `dead letter ${r.id} NOT replayed: it is ${r.status} already`,
      );
      ctx.print(human.join('\n'), results);
    });
  dlq
    .command('resolve <id>')
    .description('close a dead letter without replaying it (it was handled another way)')
    .requiredOption('--note <text>', 'how it was handled, for the audit trail')
    .action(async (id: string, o: { note: string }) => {
      const d = await ctx.letters().resolve(letterId(id, ctx), o.note);
      if (!d) ctx.usage(`no open dead letter ${id}`);
      ctx.print(`dead letter ${id} resolved: ${o.note}`, deadLetterView(d));
    });
}
