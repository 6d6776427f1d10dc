import type { Command } from 'commander';
import type { DashboardUserAdmin, DashboardUserLink, DashboardUserView } from '@pay/backoffice';

export interface UserCommandContext {
  users: () => DashboardUserAdmin;
  /** A positive merchant id, or the CLI's usage error */
  merchantId: (value: string) => number;
  print: (human: string, data: unknown) => void;
  /** Throws the CLI's usage error (exit code 2, nothing changed). */
  usage: (message: string) => never;
}

const linkLines = (u: DashboardUserLink, verb: string): string =>
  `${verb} ${u.role} user ${u.userId} ${u.email}${u.merchantId !== null ? ` (merchant ${u.merchantId}, ${u.merchantRole})` : ''}; one-time set-password link (valid 72 h, shown once):\n${u.setPasswordUrl}`;

const line = (u: DashboardUserView): string =>
  [
    u.userId,
    u.role.padEnd(8),
    u.merchantId ?? '-',
    u.merchantRole ?? '-',
    u.email,
    u.disabled
      ? 'disabled'
      : u.lockedUntil
        ? `locked until ${u.lockedUntil.toISOString()}`
        : u.passwordSet
          ? 'active'
          : 'no password yet',
    u.totpEnabled ? 'totp' : '',
  ].join('\t');

/**
 * `user create | reset-link | unlock | disable | enable | list`: the merchant dashboard's and operator console's
 * users (decision 0023). A user is given a one-time link to set a password, never a password.
 */
export function registerUserCommands(program: Command, ctx: UserCommandContext): void {
  const user = program
    .command('user')
    .description('dashboard and console users (links point at DASHBOARD_PUBLIC_URL / CONSOLE_PUBLIC_URL)');
  user
    .command('create')
    .description('a merchant user (--merchant <id>) or an operator (--operator), with a one-time set-password link')
    .requiredOption('--email <email>', "the user's email (stored lower-cased)")
    .option('--merchant <merchantId>', 'the merchant the user belongs to')
    .option('--operator', 'an operator of the console')
    .option('--role <role>', "a merchant user's role: owner (default), developer, finance or viewer (docs/access.md)")
    .action(async (o: { email: string; merchant?: string; operator?: boolean; role?: string }) => {
      if (Boolean(o.merchant) === Boolean(o.operator)) ctx.usage('give either --merchant <id> or --operator');
      if (o.operator && o.role) ctx.usage('an operator has no role: --role goes with --merchant');
      const created = await ctx.users().create({
        email: o.email,
        role: o.operator ? 'operator' : 'merchant',
        merchantId: o.merchant ? ctx.merchantId(o.merchant) : null,
        merchantRole: o.role ?? null,
      });
      ctx.print(linkLines(created, 'created'), created);
    });
  user
    .command('reset-link')
    .description(
      'a new one-time set-password link (earlier unused links stop working; the password works until the link is used)',
    )
    .requiredOption('--email <email>', "the user's email")
    .action(async (o: { email: string }) => {
      const link = await ctx.users().resetLink(o.email);
      ctx.print(linkLines(link, 'new link for'), link);
    });
  user
    .command('unlock')
    .description('clear a lockout after failed sign-ins')
    .requiredOption('--email <email>', "the user's email")
    .action(async (o: { email: string }) => {
      const u = await ctx.users().unlock(o.email);
      ctx.print(`user ${u.userId} ${u.email} unlocked`, u);
    });
  user
    .command('disable')
    .description(
      "disable a user: sign-in stops working, the user's sessions end at once, unused set-password links stop working",
    )
    .requiredOption('--email <email>', "the user's email")
    .action(async (o: { email: string }) => {
      const u = await ctx.users().disable(o.email);
      ctx.print(`user ${u.userId} ${u.email} disabled; its sessions are ended`, u);
    });
  user
    .command('set-role')
    .description("change a merchant user's role; refused when it would leave the merchant without an enabled owner")
    .requiredOption('--email <email>', "the user's email")
    .requiredOption('--role <role>', 'owner, developer, finance or viewer')
    .action(async (o: { email: string; role: string }) => {
      const u = await ctx.users().setMerchantRole(o.email, o.role);
      ctx.print(`user ${u.userId} ${u.email} is now ${u.merchantRole ?? '-'}`, u);
    });
  user
    .command('enable')
    .description('let a disabled user sign in again (its earlier sessions stay ended)')
    .requiredOption('--email <email>', "the user's email")
    .action(async (o: { email: string }) => {
      const u = await ctx.users().enable(o.email);
      ctx.print(`user ${u.userId} ${u.email} enabled`, u);
    });
  user.command('list').action(async () => {
    const all = await ctx.users().list();
    ctx.print(all.map(line).join('\n') || '(no users)', all);
  });
}
