import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BookAdjustments } from '@pay/backoffice';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import { payinsPaidAtSimulator, simulatorAcquirerAndBank, SnapSimulator } from '@pay/devstack';
import { createPgPool, createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createDashboardUser, createMerchant, createTestDatabase, dropDatabase, ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { ExitCode, runAdmin } from './admin';

/**
 * `admin recon run --snap` against the SNAP simulator as acquirer and bank (its own process): the
 * day's report and statement fetched over SNAP (the statement over several pages), reconciled, the
 * planted fault exactly its break; a bank that fails is exit code 3 and nothing stored. And the
 * audit's suspense check through `admin ledger verify`: it names the open break holding money in
 * suspense, and is quiet once an adjustment moved the money out and the break was resolved naming it.
 * Each day in a database of its own: a run reads the whole day, the audit the whole books.
 */
describe('admin recon run --snap and the suspense check of ledger verify (own database, simulator process)', () => {
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  /** A database and a simulator, three QRIS pay-ins paid at its acquirer, recorded by the ledger. */
  async function day() {
    const url = await createTestDatabase('pay_recon_cli');
    const prisma: PrismaClient = createPrismaClient(url, 2);
    const pool: Pool = createPgPool(url, 2);
    const sim = await SnapSimulator.start({
      databaseUrl: url,
      notifyUrl: 'http://127.0.0.1:9/snap/v1.0/qr/qr-mpm-notify',
    });
    const env: Record<string, string> = { DATABASE_URL: url, ...sim.env(), ...sim.acquirerEnv() };
    const { acquirer, bank } = simulatorAcquirerAndBank(sim, pool);
    cleanups.push(async () => {
      acquirer.close();
      bank.close();
      await sim.stop();
      await prisma.$disconnect();
      await pool.end();
      await dropDatabase(url);
    });
    const ledger = ledgerFor(prisma);
    await payinsPaidAtSimulator(prisma, sim, acquirer, (await createMerchant(prisma)).merchant.id, [
      150_000_00n,
      25_000_00n,
      1_234_56n,
    ]);
    /** What the outbox holds for the ledger, applied (again: an applied command is a no-op). */
    const applyOutbox = async () => {
      for (const row of await prisma.outbox.findMany({
        where: { topic: Topic.LedgerCommands },
        orderBy: { id: 'asc' },
      }))
        await ledger.apply(parseLedgerCommand(row.payload));
    };
    const admin = async (extra: Record<string, string>, ...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, {
        env: { ...env, ...extra },
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const count = async (table: 'recon_sources' | 'recon_runs') =>
      Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    const suspense = async () =>
      BigInt(
        (
          await pool.query<{ b: string }>(
            `SELECT coalesce(sum(balance), 0) AS b FROM account_balances WHERE code = 'suspense'`,
          )
        ).rows[0].b,
      );
    const settle = (body: object) => sim.control('qris/settle', { date: today, settlementDate: today, ...body });
    return { prisma, pool, sim, env, admin, applyOutbox, count, suspense, settle };
  }

  const run = ['recon', 'run', '--date', today, '--acquirer', 'sandbox', '--lag', '0'];
  const openBreaks = (report: { breaks: { code: string; subject: string; status: string }[] }) =>
    report.breaks.filter((b) => b.status === 'open').map((b) => `${b.code}:${b.subject}`);

  it('--snap: a short batch among three, the statement over three pages: exactly that break; verify warns of it until adjusted and resolved', async () => {
    const d = await day();
    expect((await d.settle({ mode: 'short', shortBy: '50000', batchSize: 1 })).status).toBe(200);
    expect((await d.sim.control('statement/paging', { pageSize: 1 })).status).toBe(200);

    const ran = await d.admin({}, ...run, '--snap');
    expect(ran.err).toBe('');
    expect(ran.code).toBe(ExitCode.Ok);
    expect(ran.out).toContain(
      'fetched the report over SNAP: 3 line(s); the statement over SNAP: 3 line(s) of the day in 3 page(s)',
    );
    const shown = await d.admin({}, '--json', 'recon', 'show', '--date', today, '--acquirer', 'sandbox', '--lag', '0');
    const report = JSON.parse(shown.out);
    expect(openBreaks(report)).toEqual(['amount_differs:batch']);
    expect(report.summary).toMatchObject({
      reportLines: { count: 3 },
      statementCredits: { count: 3 },
      suspense: '50000',
    });
    const breakId: string = report.breaks[0].id;
    await d.applyOutbox();
    expect(await d.suspense()).toBe(50_000n);

    // Open, its share in suspense: named, a warning (the audit still passes).
    const open = await d.admin({}, 'ledger', 'verify');
    expect(open.code).toBe(ExitCode.Ok);
    expect(open.out).toContain(`warning: recon_breaks ${breakId} books.suspense_open_break`);
    expect(open.out).toContain('amount_differs batch');
    expect(open.out).not.toContain('books.suspense_unexplained');

    // The acquirer paid the shortfall: an operator asks to move it out of suspense, another approves.
    const user = await createDashboardUser(d.prisma);
    const adjustment = await new BookAdjustments(d.pool).request(
      {
        merchantId: null,
        postings: [
          { account: 'bank:snap:cash', amount: '500' },
          { account: 'suspense', amount: '-500' },
        ],
        reason: 'the acquirer paid the short batch later',
      },
      (action, target) => ({ operatorUserId: user.userId, action, target, details: {}, logId: randomUUID() }),
    );
    expect((await d.admin({}, 'adjustment', 'approve', adjustment.id, '--note', 'seen on the statement')).code).toBe(
      ExitCode.Ok,
    );
    await d.applyOutbox();
    expect(await d.suspense()).toBe(0n);
    // Moved, the break still open: the break is named, the balance explained (its share less the adjustment).
    const moved = await d.admin({}, 'ledger', 'verify');
    expect(moved.out).toContain(`books.suspense_open_break`);
    expect(moved.out).not.toContain('books.suspense_unexplained');

    const resolved = await d.admin(
      {},
      'recon',
      'resolve',
      breakId,
      '--note',
      `shortfall paid; adjustment ${adjustment.id}`,
    );
    expect(resolved.code).toBe(ExitCode.Ok);
    const quiet = await d.admin({}, 'ledger', 'verify');
    expect(quiet.code).toBe(ExitCode.Ok);
    expect(quiet.out).toMatch(/^ledger OK: .*; no breach$/);
    expect(quiet.out).not.toContain('warning');
  });

  it('a break resolved without moving its money: verify warns that suspense holds what no open break explains', async () => {
    const d = await day();
    await d.settle({ mode: 'short', shortBy: '12345' });
    const ran = await d.admin({}, '--json', ...run, '--snap');
    expect(ran.code).toBe(ExitCode.Ok);
    const [shortBatch] = JSON.parse(ran.out).breaks as { id: string }[];
    await d.applyOutbox();
    expect((await d.admin({}, 'recon', 'resolve', shortBatch.id, '--note', ' written off ')).code).toBe(ExitCode.Ok);
    // The console's rules (the same use case): resolved once, the note trimmed; again, a conflict; audited like the console's.
    const again = await d.admin({}, 'recon', 'resolve', shortBatch.id, '--note', 'twice');
    expect(again.code).not.toBe(ExitCode.Ok);
    expect(again.err).toContain('resolved already');
    const { rows: audit } = await d.pool.query<{ action: string; resolution: string }>(
      `SELECT a.action, b.resolution FROM operator_audit_log a JOIN recon_breaks b ON a.target = 'recon-break:' || b.id
        WHERE b.id = $1`,
      [shortBatch.id],
    );
    expect(audit).toEqual([{ action: 'recon.resolve', resolution: 'written off' }]);
    const verified = await d.admin({}, 'ledger', 'verify');
    expect(verified.code).toBe(ExitCode.Ok);
    expect(verified.out).not.toContain('books.suspense_open_break');
    expect(verified.out).toContain(
      "warning: accounts suspense books.suspense_unexplained: expected balance 0 (open breaks' shares 0 + 0 adjustment(s) tied to no resolved break 0); found balance 12345",
    );
  });

  it('a bank that refuses our signature, or does not answer: exit code 3 saying so, nothing stored; asked again later, reconciled', async () => {
    const d = await day();
    await d.settle({ mode: 'normal' });
    // The acquirer's secret is right, the bank's wrong: the report comes, the statement is refused (401).
    const wrong = join(d.sim.dir, 'wrong-secret');
    writeFileSync(wrong, 'not-the-client-secret-at-all');
    const refused = await d.admin(
      { SNAP_CLIENT_SECRET_FILE: wrong, SNAP_ACQUIRER_CLIENT_SECRET_FILE: d.env.SNAP_CLIENT_SECRET_FILE },
      ...run,
      '--snap',
    );
    expect(refused.code).toBe(ExitCode.Failure);
    expect(refused.err).toMatch(
      new RegExp(
        `^error: the bank's statement of ${today} over SNAP: 401\\d{4} .*; nothing was stored, run it again later$`,
      ),
    );
    expect([await d.count('recon_sources'), await d.count('recon_runs')]).toEqual([0, 0]);

    await d.sim.kill();
    const away = await d.admin({}, ...run, '--report', 'snap', '--statement', 'snap');
    expect(away.code).toBe(ExitCode.Failure);
    expect(away.err).toMatch(
      new RegExp(
        `^error: the acquirer's settlement report of ${today} over SNAP: not sent: .*ECONNREFUSED; nothing was stored, run it again later$`,
      ),
    );
    expect([await d.count('recon_sources'), await d.count('recon_runs')]).toEqual([0, 0]);

    await d.sim.restart();
    const again = await d.admin({}, '--json', ...run, '--snap');
    expect(again.code).toBe(ExitCode.Ok);
    expect(openBreaks(JSON.parse(again.out))).toEqual([]);
    expect(await d.count('recon_sources')).toBe(2);
  });

  it('--snap beside a file, or without the SNAP settings: a usage error, nothing fetched', async () => {
    const both = await runAdmin([...run, '--snap', '--report', 'a.csv'], {
      env: {},
      out: () => undefined,
      err: () => undefined,
    });
    expect(both).toBe(ExitCode.Usage);
    const errs: string[] = [];
    const none = await runAdmin([...run, '--statement', 'snap'], {
      env: { DATABASE_URL: process.env.DATABASE_URL as string },
      out: () => undefined,
      err: (l) => errs.push(l),
    });
    expect(none).toBe(ExitCode.Usage);
    expect(errs.join('\n')).toContain("the bank's statement over SNAP needs SNAP_BASE_URL");
  });
});
