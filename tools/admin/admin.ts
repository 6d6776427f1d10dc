import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { formatAmountString } from '@pay/domain';
import type { Pool } from 'pg';
import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { isMisconfiguration, isNotifyUrl, isTransientFault, loadConfig } from '@pay/platform';
import { adminConfigSchema } from './admin.config';
import { registerAdjustmentCommands } from './adjustment.commands';
import { registerBooksCommands, registerBooksExportCommand } from './books.commands';
import { registerReconCommands } from './recon.commands';
import { registerDeadLetterCommands } from './dead-letter.commands';
import { registerPayoutCommands } from './payout.commands';
import { registerUserCommands } from './user.commands';
import { registerCliAudit } from './cli-audit';
import {
  applyMigrations,
  createPgPool,
  createPrismaClient,
  describeBreach,
  describeDatabaseError,
  type PrismaClient,
  withApplicationName,
} from '@pay/persistence';
import {
  auditLedger,
  DashboardUserAdmin,
  cliActor,
  DeadLetterActions,
  describeMerchant,
  MerchantAdmin,
  parseFeeInput,
  BookAdjustments,
  PayoutReversals,
  SettlementRequests,
  WebhookActions,
} from '@pay/backoffice';

/** Exit codes of the admin CLI (documented in the README). */
export enum ExitCode {
  Ok = 0,
  /** `ledger verify` found breaches */
  Breach = 1,
  /** bad arguments, unknown merchant or token */
  Usage = 2,
  /** database unreachable or another unexpected failure */
  Failure = 3,
}

/** The back office's refusals as the CLI exits on them: nothing was changed, the arguments were wrong. */
const BACKOFFICE_EXIT_CODE: Record<BackofficeErrorCode, ExitCode> = {
  [BackofficeErrorCode.MerchantNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.TokenNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.DashboardUserNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.DeadLetterNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.WebhookDeliveryNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.DisbursementNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.DisbursementNotReversible]: ExitCode.Usage,
  [BackofficeErrorCode.AdjustmentNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.OwnAdjustment]: ExitCode.Usage,
  [BackofficeErrorCode.AdjustmentNotRequested]: ExitCode.Usage,
  [BackofficeErrorCode.InvalidInput]: ExitCode.Usage,
  [BackofficeErrorCode.InvalidState]: ExitCode.Usage,
  [BackofficeErrorCode.CallbackUrlRefused]: ExitCode.Usage,
  [BackofficeErrorCode.Conflict]: ExitCode.Usage,
  [BackofficeErrorCode.ExportNotFound]: ExitCode.Usage,
  [BackofficeErrorCode.ReconNotFound]: ExitCode.Usage,
};

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const id = (value: string) => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new InvalidArgumentError('expected a merchant id (a positive integer)');
  return Number(value);
};
/** A rate limit (a positive whole number), or 'default' for the gateway's setting (stored as null; Commander turns a parsed null into ''). */
const limitOrDefault = (value: string): number | 'default' => {
  if (value === 'default') return value;
  if (!/^[1-9]\d{0,5}$/.test(value))
    throw new InvalidArgumentError("expected a whole number of requests (1 or more) or 'default'");
  return Number(value);
};

/**
 * The operators' CLI. Runs in-process against DATABASE_URL; every command prints a short
 * human line (or JSON with --json) and exits with an ExitCode.
 */
export async function runAdmin(argv: string[], io: AdminIo): Promise<ExitCode> {
  let prisma: PrismaClient | undefined;
  let pool: Pool | undefined;
  const config = loadConfig(adminConfigSchema, io.env);
  const databaseUrl = () => {
    const url = config.database.url;
    if (!url) throw new UsageError('DATABASE_URL is not set');
    return url;
  };
  const db = () => (prisma ??= createPrismaClient(withApplicationName(databaseUrl(), 'admin'), 2));
  const pg = () => (pool ??= createPgPool(withApplicationName(databaseUrl(), 'admin'), 2));
  const webhooks = () => new WebhookActions(pg());
  const admin = () => new MerchantAdmin(db(), config.webhooks);
  let json = false;
  // What the command printed last: the audit row's target may come from it (the id it created).
  let printed: unknown = null;
  const print = (human: string, data: unknown) => {
    printed = data;
    io.out(json ? JSON.stringify(data) : human);
  };
  let exitCode = ExitCode.Ok;

  const program = new Command('admin')
    .description('Operate merchants, tokens and the ledger')
    .option('--json', 'print machine-readable JSON')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .hook('preAction', (cmd) => {
      json = Boolean(cmd.opts().json);
    });
  registerCliAudit(program, { pool: pg, merchants: admin, printed: () => printed });

  const merchant = program.command('merchant').description('create and change merchants');
  merchant
    .command('create')
    .requiredOption('--name <name>', 'merchant name')
    .option('--payin-fee-percent <pct>', 'QRIS fee percentage (0.7 = 0.7 %)')
    .option('--payin-fee-fixed <amount>', 'QRIS fixed fee in Rupiah')
    .option('--payout-fee <amount>', 'flat disbursement fee in Rupiah')
    .action(async (o: { name: string; payinFeePercent?: string; payinFeeFixed?: string; payoutFee?: string }) => {
      const { name, ...fees } = o;
      const m = await admin().create({
        name,
        ...(Object.values(fees).some((v) => v !== undefined) ? parseFeeInput(fees) : {}),
      });
      print(`created merchant ${m.id} "${m.name}"`, describeMerchant(m));
    });
  merchant.command('list').action(async () => {
    const all = await admin().list();
    print(
      all.map((m) => `${m.id}\t${m.isActive ? 'active  ' : 'inactive'}\t${m.name}`).join('\n') || '(no merchants)',
      all.map(describeMerchant),
    );
  });
  merchant.command('show <merchantId>').action(async (mid: string) => {
    const m = await admin().get(id(mid));
    print(JSON.stringify(describeMerchant(m), null, 2), describeMerchant(m));
  });
  for (const [name, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    merchant.command(`${name} <merchantId>`).action(async (mid: string) => {
      const m = await admin().setActive(id(mid), active);
      print(`merchant ${m.id} is now ${m.isActive ? 'active' : 'inactive'}`, describeMerchant(m));
    });
  }
  merchant
    .command('set-fees <merchantId>')
    .option('--payin-fee-percent <pct>', 'QRIS fee percentage (0.7 = 0.7 %)')
    .option('--payin-fee-fixed <amount>', 'QRIS fixed fee in Rupiah')
    .option('--payout-fee <amount>', 'flat disbursement fee in Rupiah')
    .action(async (mid: string, o: { payinFeePercent?: string; payinFeeFixed?: string; payoutFee?: string }) => {
      const m = await admin().setFeesFromInput(id(mid), o);
      const d = describeMerchant(m);
      print(`merchant ${m.id} fees: pay-in ${JSON.stringify(d.payinFee)}, payout ${String(d.payoutFee)}`, d);
    });

  merchant
    .command('set-qris <merchantId>')
    .description('QRIS identity printed into every code')
    .option('--nmid <nmid>', 'National Merchant ID from the acquirer, e.g. ID1020021181745')
    .option('--mcc <mcc>', 'merchant category code, 4 digits')
    .option('--criteria <criteria>', 'UMI, UKE, UME, UBE or URE')
    .option('--city <city>', 'merchant city (printed up to 15 characters)')
    .option('--postal-code <code>', '5 digits')
    .action(
      async (
        mid: string,
        o: { nmid?: string; mcc?: string; criteria?: string; city?: string; postalCode?: string },
      ) => {
        const m = await admin().setQris(id(mid), {
          nmid: o.nmid,
          mcc: o.mcc,
          merchantCriteria: o.criteria,
          city: o.city,
          postalCode: o.postalCode,
        });
        print(
          `merchant ${m.id} QRIS: NMID ${m.nmid}, MCC ${m.mcc}, ${m.merchantCriteria}, ${m.city}`,
          describeMerchant(m),
        );
      },
    );
  merchant
    .command('set-settlement <merchantId>')
    .description('settlement schedule: T+<days> at <hour>:00 Asia/Jakarta')
    .option('--delay-days <days>', 'settle pay-ins this many days after the day they succeeded (1 = T+1)', Number)
    .option('--hour <hour>', 'hour of the day the settlement runs, 0-23, Asia/Jakarta', Number)
    .action(async (mid: string, o: { delayDays?: number; hour?: number }) => {
      const m = await admin().setSettlementSchedule(id(mid), { delayDays: o.delayDays, hour: o.hour });
      print(`merchant ${m.id} settles ${describeMerchant(m).settlement}`, describeMerchant(m));
    });
  merchant
    .command('set-rate-limits <merchantId>')
    .description("the merchant's own rate limits; 'default' goes back to the gateway's RATE_LIMIT_* setting")
    .option('--read <perSecond>', 'balance and status reads per second', limitOrDefault)
    .option('--write <perSecond>', 'QRIS codes, account inquiries and transfers per second', limitOrDefault)
    .option('--export <perMinute>', 'new recon exports per minute', limitOrDefault)
    .action(
      async (
        mid: string,
        o: { read?: number | 'default'; write?: number | 'default'; export?: number | 'default' },
      ) => {
        const stored = (v: number | 'default' | undefined) => (v === 'default' ? null : v);
        const m = await admin().setRateLimits(id(mid), {
          read: stored(o.read),
          write: stored(o.write),
          export: stored(o.export),
        });
        print(`merchant ${m.id} rate limits: ${JSON.stringify(describeMerchant(m).rateLimits)}`, describeMerchant(m));
      },
    );

  const settlement = program.command('settlement').description('settle successful pay-ins: pending -> available');
  settlement
    .command('run')
    .description("request the settlements that are due now (each merchant's schedule), or for a given cut-off")
    .option('--merchant <merchantId>', 'only this merchant', id)
    .option('--cutoff <time>', 'settle pay-ins that succeeded before this ISO 8601 time (default: the schedule)')
    .option('--wait <seconds>', 'wait up to this long for the ledger to credit them', Number, 0)
    .action(async (o: { merchant?: number; cutoff?: string; wait: number }) => {
      let cutoff: Date | undefined;
      if (o.cutoff) {
        cutoff = new Date(o.cutoff);
        if (Number.isNaN(cutoff.getTime())) throw new UsageError('--cutoff must be an ISO 8601 time');
        if (cutoff > new Date()) throw new UsageError('--cutoff must not be in the future');
      }
      const results = await new SettlementRequests(db()).run({ merchantId: o.merchant, cutoff, waitSeconds: o.wait });
      const lines = results.map((r) =>
        r.credited
          ? `merchant ${r.merchantId} settlement ${r.settlementId} (cut-off ${r.cutoffAt.toISOString()}): ${r.credited.payins} pay-ins, net ${formatAmountString(BigInt(r.credited.net))} credited`
          : `merchant ${r.merchantId} settlement ${r.settlementId} (cut-off ${r.cutoffAt.toISOString()}): ${r.payinCount} pay-ins ${r.requested ? 'requested' : 'already requested'}, not credited yet`,
      );
      print(lines.join('\n') || 'nothing to settle', results);
    });

  const allowlist = program.command('allowlist').description("the merchant's pay-in IP allowlist");
  allowlist
    .command('set <merchantId> [entries...]')
    .description('replace the list (addresses or CIDR ranges, IPv4 or IPv6); it is enforced only once enabled')
    .action(async (mid: string, entries: string[]) => {
      const m = await admin().setAllowlist(id(mid), entries);
      print(
        `merchant ${m.id} allowlist: ${m.ipAllowlist.join(', ') || '(empty)'} (${m.ipAllowlistEnabled ? 'enabled' : 'not enabled'})`,
        describeMerchant(m),
      );
    });
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    allowlist.command(`${name} <merchantId>`).action(async (mid: string) => {
      const m = await admin().setAllowlistEnabled(id(mid), enabled);
      if (enabled && m.ipAllowlist.length === 0)
        io.err('warning: the allowlist is empty, so every request of this merchant is now refused');
      print(`merchant ${m.id} allowlist ${enabled ? 'enabled' : 'disabled'}`, describeMerchant(m));
    });
  }
  allowlist
    .command('clear <merchantId>')
    .description('empty the list and stop enforcing it')
    .action(async (mid: string) => {
      const m = await admin().clearAllowlist(id(mid));
      print(`merchant ${m.id} allowlist cleared (not enabled)`, describeMerchant(m));
    });

  const token = program.command('token').description('API tokens (only a hash is stored)');
  token
    .command('issue <merchantId>')
    .option('--label <label>', 'what the token is for', '')
    .option('--scopes <scopes>', 'comma-separated scopes (docs/access.md); default every scope')
    .action(async (mid: string, o: { label: string; scopes?: string }) => {
      const scopes = o.scopes?.split(',').map((s) => s.trim());
      const t = await admin().issueToken(id(mid), o.label, scopes);
      print(`token ${t.id} for merchant ${mid} (shown once, store it now), scopes ${t.scopes.join(',')}:\n${t.token}`, {
        id: t.id,
        merchantId: Number(mid),
        token: t.token,
        scopes: t.scopes,
      });
    });
  token.command('list <merchantId>').action(async (mid: string) => {
    const tokens = await admin().listTokens(id(mid));
    print(
      tokens
        .map(
          (t) =>
            `${t.id}\t${t.prefix}…\t${t.revokedAt ? 'revoked ' + t.revokedAt.toISOString() : 'active'}\t${t.scopes.join(',')}\t${t.label}`,
        )
        .join('\n') || '(no tokens)',
      tokens,
    );
  });
  token.command('revoke <tokenId>').action(async (tid: string) => {
    const r = await admin().revokeToken(tid);
    print(`token ${tid} revoked`, { id: tid, merchantId: r.merchantId, revokedAt: r.revokedAt });
  });

  const ledger = program.command('ledger').description("the ledger event store and the platform's books");
  registerBooksCommands(ledger, { db, print });
  registerBooksExportCommand(program, { db, print, config });
  registerReconCommands(program, { pg, print, actor: cliActor, usage: (m) => new UsageError(m), config });
  ledger
    .command('verify')
    .description(
      'audit the ledger: balances equal the fold of their events, and every event and money-moving row has its exact counterpart',
    )
    .option('--merchant <id>', 'audit this merchant only', id)
    .option(
      '--grace <seconds>',
      'a pay-in or failed payout whose ledger command may still be on the bus for this long is in flight, not a breach',
      '300',
    )
    .action(async (o: { merchant?: number; grace: string }) => {
      const grace = Number(o.grace);
      if (!Number.isInteger(grace) || grace < 0 || grace > 86_400)
        throw new UsageError('--grace must be a whole number of seconds between 0 and 86400');
      const report = await auditLedger(db(), { merchantId: o.merchant, graceSeconds: grace });
      const r = report.rowsChecked;
      const b = report.booksChecked;
      const scope = `${report.merchantsChecked} merchants, ${report.eventsChecked} events, ${r.payins} pay-ins, ${r.settlements} settlements, ${r.disbursements} disbursements, ${r.decisions} decisions; the books: ${b.entries} entries, ${b.postings} postings, ${b.accounts} accounts`;
      // Neither is a breach (the exit code stays): what is in flight, and money in suspense held or unexplained by reconciliation breaks.
      const notes = [
        ...report.inFlight.map((b) => `  in flight (< ${grace} s): ${describeBreach(b)}`),
        ...report.warnings.map((b) => `  warning: ${describeBreach(b)}`),
      ];
      if (report.breaches.length === 0) {
        print([`ledger OK: ${scope}; no breach`, ...notes].join('\n'), report);
        return;
      }
      exitCode = ExitCode.Breach;
      print(
        [
          `ledger BREACH: ${report.breaches.length} breach(es) in ${scope}`,
          ...report.breaches.map((b) => `  ${describeBreach(b)}`),
          ...notes,
        ].join('\n'),
        report,
      );
    });

  merchant
    .command('set-callback-url <merchantId> [url]')
    .description("the merchant's default pay-in callback URL (a pay-in's own notifyUrl wins); --clear removes it")
    .option('--clear', 'no default: pay-ins without notifyUrl get no callback')
    .action(async (mid: string, url: string | undefined, o: { clear?: boolean }) => {
      if (Boolean(url) === Boolean(o.clear)) throw new UsageError('give either a URL or --clear');
      const target = url ?? null;
      if (target && !isNotifyUrl(target))
        throw new UsageError('the callback URL must be an absolute http or https URL of at most 2048 characters');
      // Where it points is checked as the API checks it (public addresses only, WEBHOOK_ALLOW_LOOPBACK aside).
      const m = await admin().setCallbackUrl(id(mid), target);
      print(`merchant ${m.id} pay-in callback URL: ${m.payinCallbackUrl ?? '(none)'}`, describeMerchant(m));
    });

  const webhook = program.command('webhook').description('callbacks to notifyUrl: disbursements and pay-ins');
  const secret = webhook.command('secret').description("the merchant's webhook signing secret");
  secret.command('show <merchantId>').action(async (mid: string) => {
    const s = await admin().webhookSecret(id(mid));
    const grace =
      s.previous && s.previousExpiresAt && s.previousExpiresAt > new Date()
        ? `\nprevious secret still signing until ${s.previousExpiresAt.toISOString()}`
        : '';
    print(`${s.secret}${grace}`, { merchantId: Number(mid), secret: s.secret, previousExpiresAt: s.previousExpiresAt });
  });
  secret
    .command('rotate <merchantId>')
    .option('--grace-hours <hours>', 'keep signing with the old secret too for this long (0 = stop at once)', '24')
    .action(async (mid: string, o: { graceHours: string }) => {
      const r = await admin().rotateWebhookSecret(id(mid), Number(o.graceHours));
      const until = r.previousExpiresAt
        ? `the old secret also signs until ${r.previousExpiresAt.toISOString()}`
        : 'the old secret no longer signs';
      print(`new webhook secret for merchant ${mid} (${until}):\n${r.secret}`, {
        merchantId: Number(mid),
        secret: r.secret,
        previousExpiresAt: r.previousExpiresAt,
      });
    });
  webhook.command('show <deliveryIdOrEventId>').action(async (key: string) => {
    const d = await webhooks().find(key);
    if (!d) throw new UsageError(`no webhook delivery ${key}`);
    const lines = [
      `delivery ${d.id} event ${d.eventId} (${d.eventType}) merchant ${d.merchantId}`,
      `  ${d.status}, ${d.attemptCount} attempt(s), resent ${d.resendCount}x, next ${d.nextAttemptAt?.toISOString() ?? '-'} -> ${d.url}`,
      ...d.attempts.map(
        (a) =>
          `  #${a.attemptNo} ${a.startedAt.toISOString()} ${a.statusCode ?? '---'} ${a.latencyMs}ms ${a.outcome}${a.error ? ' ' + a.error : ''}`,
      ),
    ];
    print(lines.join('\n'), d);
  });
  webhook
    .command('resend <deliveryId>')
    .description('send a delivery again from the start of the retry schedule; the event id stays the same')
    .action(async (did: string) => {
      if (!/^[0-9a-f-]{36}$/i.test(did)) throw new UsageError('expected a delivery id (UUID)');
      const d = await webhooks().resend(did);
      if (!d) throw new UsageError(`delivery ${did} not found or an attempt is in progress`);
      print(`delivery ${d.id} (event ${d.eventId}) queued for resend`, {
        id: d.id,
        eventId: d.eventId,
        status: d.status,
      });
    });
  webhook
    .command('resend-failed')
    .description('resend every failed or dead-lettered delivery of a merchant created since a time')
    .requiredOption('--merchant <merchantId>', 'merchant id', id)
    .requiredOption('--since <time>', 'ISO 8601 time, e.g. 2026-11-22T00:00:00+07:00')
    .action(async (o: { merchant: number; since: string }) => {
      const since = new Date(o.since);
      if (Number.isNaN(since.getTime())) throw new UsageError('--since must be an ISO 8601 time');
      const resent = await webhooks().resendFailed(o.merchant, since);
      print(`${resent.length} delivery(ies) queued for resend`, { resent });
    });

  registerDeadLetterCommands(program, {
    letters: () => new DeadLetterActions(pg()),
    print,
    usage: (message) => {
      throw new UsageError(message);
    },
  });

  registerPayoutCommands(program, { reversals: () => new PayoutReversals(pg()), print });
  registerAdjustmentCommands(program, { adjustments: () => new BookAdjustments(pg()), merchantId: id, print });

  registerUserCommands(program, {
    users: () => new DashboardUserAdmin(pg(), config.links),
    merchantId: (value) => {
      try {
        return id(value);
      } catch (err) {
        throw new UsageError(`--merchant: ${(err as Error).message}`);
      }
    },
    print,
    usage: (message) => {
      throw new UsageError(message);
    },
  });

  program
    .command('migrate')
    .description('apply pending SQL migrations (records them like prisma migrate deploy)')
    .option('--dir <path>', 'migrations folder', 'prisma/migrations')
    .action(async (o: { dir: string }) => {
      const result = await applyMigrations(databaseUrl(), o.dir, (line) => io.err(line));
      print(`migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`, result);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}`);
      return ExitCode.Usage;
    }
    // A refused input names the option's field (payoutFee for --payout-fee); the message says what is wrong.
    if (err instanceof BackofficeError) {
      io.err(`error: ${err.message}`);
      return BACKOFFICE_EXIT_CODE[err.code];
    }
    io.err(`error: ${failureLine(err, config.database.url)}`);
    return ExitCode.Failure;
  } finally {
    await prisma?.$disconnect();
    await pool?.end();
  }
}

class UsageError extends Error {}

/** Exit code 3's one line (never a stack, never Prisma's multi-line message): an unreachable database says so and where. */
function failureLine(err: unknown, databaseUrl: string | undefined): string {
  if (databaseUrl && (isTransientFault(err) || isMisconfiguration(err))) return describeDatabaseError(err, databaseUrl);
  const message = err instanceof Error ? err.message : String(err);
  return (
    message
      .split('\n')
      .filter((l) => l.trim())
      .pop()
      ?.trim() ?? message
  );
}
