import { randomUUID } from 'node:crypto';
import { changesBetween, cliActor, type MerchantAdmin, merchantAuditState } from '@pay/backoffice';
import { AuditLogRepository } from '@pay/persistence';
import type { Command } from 'commander';
import type { Pool } from 'pg';

/** What an audited command's target is made from: its arguments, options and the data it printed. */
interface CliSubject {
  args: string[];
  opts: Record<string, unknown>;
  printed: Record<string, unknown>;
}

interface CliAuditSpec {
  action: string;
  target: (s: CliSubject) => string;
  /** The command changes the settings of the merchant its first argument names: record old and new */
  merchantChanges?: boolean;
}

const merchantArg = ({ args }: CliSubject) => `merchant:${args[0]}`;
const merchantOpt = ({ opts }: CliSubject) =>
  opts.merchant === undefined ? 'merchant:all' : `merchant:${String(opts.merchant)}`;
const printedUser = ({ printed }: CliSubject) => `dashboard-user:${String(printed.userId)}`;
const settings = (action: string): CliAuditSpec => ({ action, target: merchantArg, merchantChanges: true });

/**
 * Every admin CLI command that changes something, keyed by its path: the same action names as the
 * console and the ops API write, so the audit log reads one way whichever was used.
 */
const AUDITED: Record<string, CliAuditSpec> = {
  'merchant create': { action: 'merchant.create', target: ({ printed }) => `merchant:${String(printed.id)}` },
  'merchant activate': settings('merchant.activate'),
  'merchant deactivate': settings('merchant.deactivate'),
  'merchant set-fees': settings('merchant.fees'),
  'merchant set-qris': settings('merchant.qris-identity'),
  'merchant set-settlement': settings('merchant.settlement-schedule'),
  'merchant set-rate-limits': settings('merchant.rate-limits'),
  'merchant set-callback-url': settings('merchant.payin-callback-url'),
  'allowlist set': settings('merchant.allowlist'),
  'allowlist enable': settings('merchant.allowlist-enable'),
  'allowlist disable': settings('merchant.allowlist-disable'),
  'allowlist clear': settings('merchant.allowlist-clear'),
  'settlement run': { action: 'settlement.run', target: merchantOpt },
  'token issue': { action: 'token.create', target: merchantArg },
  'token revoke': { action: 'token.revoke', target: ({ args }) => `token:${args[0]}` },
  'webhook secret show': { action: 'webhook-secret.reveal', target: merchantArg },
  'webhook secret rotate': { action: 'webhook-secret.rotate', target: merchantArg },
  'webhook resend': { action: 'webhook-delivery.resend', target: ({ args }) => `webhook-delivery:${args[0]}` },
  'webhook resend-failed': { action: 'webhook-delivery.resend-failed', target: merchantOpt },
  'user create': { action: 'dashboard-user.create', target: printedUser },
  'user reset-link': { action: 'dashboard-user.reset-link', target: printedUser },
  'user unlock': { action: 'dashboard-user.unlock', target: printedUser },
  'user disable': { action: 'dashboard-user.disable', target: printedUser },
  'user enable': { action: 'dashboard-user.enable', target: printedUser },
  'user set-role': { action: 'dashboard-user.role', target: printedUser },
  'dlq replay': { action: 'dead-letter.replay', target: ({ args }) => `dead-letter:${args.join(',')}` },
  'dlq resolve': { action: 'dead-letter.resolve', target: ({ args }) => `dead-letter:${args[0]}` },
  'payout reverse': { action: 'disbursement.reverse', target: ({ args }) => `disbursement:${args[0]}` },
  'recon assign': { action: 'recon.assign', target: ({ args }) => `recon-break:${args[0]}` },
  'recon resolve': { action: 'recon.resolve', target: ({ args }) => `recon-break:${args[0]}` },
};

/** Options never written to the audit log. */
const SECRET_OPTION = /password|secret|token|totp|code$/i;

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Writes one audit row for every command of AUDITED that succeeded, as actor `cli:<os user>@<host>`
 * (no dashboard user runs the CLI), with the command's arguments and options (no secret) and, for a
 * merchant's settings, old and new of every field that moved (read before and after the command).
 * A command that fails (bad arguments, unknown merchant, a refusal) writes nothing: the row is
 * written after the action returned. The rows of one run share a logId.
 */
export function registerCliAudit(
  program: Command,
  ctx: { pool: () => Pool; merchants: () => MerchantAdmin; printed: () => unknown },
): void {
  const logId = randomUUID();
  let before: Record<string, unknown> | null = null;
  const stateOf = async (merchantId: string) =>
    /^[1-9]\d{0,9}$/.test(merchantId) ? merchantAuditState(await ctx.merchants().get(Number(merchantId))) : null;

  program.hook('preAction', async (_root, cmd) => {
    const spec = AUDITED[pathOf(cmd)];
    // An unknown merchant is refused by the command itself, which then writes nothing.
    before = spec?.merchantChanges ? await stateOf(cmd.args[0]).catch(() => null) : null;
  });
  program.hook('postAction', async (_root, cmd) => {
    const spec = AUDITED[pathOf(cmd)];
    if (!spec) return;
    const printed = ctx.printed();
    const subject: CliSubject = {
      args: cmd.args,
      opts: cmd.opts(),
      printed: typeof printed === 'object' && printed !== null ? (printed as Record<string, unknown>) : {},
    };
    const options = Object.fromEntries(Object.entries(cmd.opts()).filter(([name]) => !SECRET_OPTION.test(name)));
    const details: Record<string, unknown> = { command: pathOf(cmd), args: cmd.args, options };
    if (before) details.changes = changesBetween(before, (await stateOf(cmd.args[0])) ?? {});
    await new AuditLogRepository(ctx.pool()).record({
      operatorUserId: null,
      actor: cliActor(),
      merchantId: null,
      action: spec.action,
      target: spec.target(subject),
      details,
      logId,
    });
  });
}
