import { randomUUID } from 'node:crypto';
import { BookAdjustments } from '@pay/backoffice';
import { parseLedgerCommand } from '@pay/contracts';
import { createPgPool, createPrismaClient, hashToken, type PrismaClient } from '@pay/persistence';
import {
  createDashboardUser,
  createDisbursement,
  createMerchant,
  fundMerchant,
  insertSuccessfulPayin,
  ledgerFor,
} from '@pay/testing';
import { ExitCode, runAdmin } from './admin';
import { adminRunner } from './admin-runner';

describe('admin CLI (real Postgres)', () => {
  let prisma: PrismaClient;
  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
  });
  afterAll(() => prisma.$disconnect());

  const admin = adminRunner();

  it('creates a merchant with fees, issues a token printed once (only its hash stored), and revokes it', async () => {
    const created = await admin(
      '--json',
      'merchant',
      'create',
      '--name',
      'Toko Sinar Jaya',
      '--payin-fee-percent',
      '0.7',
      '--payin-fee-fixed',
      '150',
      '--payout-fee',
      '2500',
    );
    expect(created.code).toBe(ExitCode.Ok);
    const merchant = JSON.parse(created.out);
    expect(merchant).toMatchObject({
      name: 'Toko Sinar Jaya',
      active: true,
      payinFee: { percentage: 0.7, fixed: '150' },
      payoutFee: '2500',
    });
    expect(await prisma.balance.findUnique({ where: { merchantId: merchant.id } })).toMatchObject({
      available: 0n,
      pending: 0n,
    });

    const issued = await admin('token', 'issue', String(merchant.id), '--label', 'production');
    expect(issued.code).toBe(ExitCode.Ok);
    const token = issued.out.split('\n')[1];
    expect(token).toMatch(/^mtk_[A-Za-z0-9_-]{43}$/);
    const row = await prisma.apiToken.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const listed = await admin('token', 'list', String(merchant.id));
    expect(listed.out).toContain('active');
    expect(listed.out).not.toContain(token);

    expect((await admin('token', 'revoke', row.id)).code).toBe(ExitCode.Ok);
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).not.toBeNull();
  });

  it('writes every change to the audit log as the CLI (os user and host), with old and new; a refused command writes nothing; no token or secret', async () => {
    const rowsOf = (target: string) =>
      prisma.$queryRaw<
        { operator_user_id: string | null; actor: string; action: string; details: Record<string, unknown> }[]
      >`
        SELECT operator_user_id::text, actor, action, details FROM operator_audit_log WHERE target = ${target} ORDER BY id`;
    const merchant = JSON.parse((await admin('--json', 'merchant', 'create', '--name', 'Toko Audit')).out);
    const target = `merchant:${merchant.id}`;
    expect((await admin('merchant', 'set-fees', String(merchant.id), '--payin-fee-percent', '-1')).code).toBe(
      ExitCode.Usage,
    );
    expect((await admin('merchant', 'set-fees', '987654', '--payout-fee', '1')).code).toBe(ExitCode.Usage);
    expect((await admin('merchant', 'set-fees', String(merchant.id), '--payin-fee-percent', '0.5')).code).toBe(
      ExitCode.Ok,
    );
    const issued = await admin('token', 'issue', String(merchant.id), '--label', 'ci');
    const shown = await admin('webhook', 'secret', 'show', String(merchant.id));
    const rotated = await admin('webhook', 'secret', 'rotate', String(merchant.id));
    expect(await rowsOf('merchant:987654')).toEqual([]);
    const rows = await rowsOf(target);
    expect(rows.map((r) => [r.operator_user_id, r.action])).toEqual([
      [null, 'merchant.create'],
      [null, 'merchant.fees'],
      [null, 'token.create'],
      [null, 'webhook-secret.reveal'],
      [null, 'webhook-secret.rotate'],
    ]);
    for (const r of rows) expect(r.actor).toMatch(/^cli:.+@.+$/);
    expect(rows[1].details).toMatchObject({
      command: 'merchant set-fees',
      changes: { payinFeePctMilli: { from: 700, to: 500 } },
    });
    expect(Object.keys(rows[1].details.changes as object)).toEqual(['payinFeePctMilli']);
    const logged = JSON.stringify(rows);
    expect(logged).not.toContain(issued.out.split('\n')[1]);
    expect(logged).not.toContain(rotated.out.split('\n')[1]);
    const shownSecret = shown.out.split('\n')[0].trim();
    expect(shownSecret.length).toBeGreaterThan(20);
    expect(logged).not.toContain(shownSecret);
  });

  it('sets fees, the allowlist and the active flag', async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Warung Bu Tini');
    const id = String(JSON.parse(out).id);
    expect(
      (await admin('merchant', 'set-fees', id, '--payin-fee-percent', '1.25', '--payout-fee', '3000.50')).code,
    ).toBe(ExitCode.Ok);
    expect((await admin('allowlist', 'set', id, '203.0.113.0/24', '2001:db8::1')).code).toBe(ExitCode.Ok);
    expect((await admin('allowlist', 'enable', id)).code).toBe(ExitCode.Ok);
    expect((await admin('merchant', 'deactivate', id)).code).toBe(ExitCode.Ok);
    const m = await prisma.merchant.findUniqueOrThrow({ where: { id: Number(id) } });
    expect(m).toMatchObject({
      payinFeePctMilli: 1250,
      payoutFeeFlat: 300050n,
      ipAllowlist: ['203.0.113.0/24', '2001:db8:0:0:0:0:0:1'],
      ipAllowlistEnabled: true,
      isActive: false,
    });
  });

  it("sets a merchant's own rate limits, and 'default' goes back to the gateway's", async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Toko Ramai');
    const id = String(JSON.parse(out).id);
    expect((await admin('merchant', 'set-rate-limits', id, '--read', '500', '--export', '30')).code).toBe(ExitCode.Ok);
    expect((await admin('merchant', 'set-rate-limits', id, '--read', 'default', '--write', '200')).code).toBe(
      ExitCode.Ok,
    );
    expect(JSON.parse((await admin('--json', 'merchant', 'show', id)).out).rateLimits).toEqual({
      readPerSecond: 'default',
      writePerSecond: 200,
      exportsPerMinute: 30,
    });
    for (const bad of [[], ['--read', '0'], ['--write', 'lots']])
      expect((await admin('merchant', 'set-rate-limits', id, ...bad)).code).toBe(ExitCode.Usage);
    expect(await prisma.merchant.findUniqueOrThrow({ where: { id: Number(id) } })).toMatchObject({
      rateLimitRead: null,
      rateLimitWrite: 200,
      rateLimitExport: 30,
    });
  });

  it("sets and clears a merchant's default pay-in callback URL, refusing bad and private URLs", async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Toko Callback');
    const id = String(JSON.parse(out).id);
    expect((await admin('merchant', 'set-callback-url', id, 'https://93.184.216.34/callbacks/payin')).code).toBe(
      ExitCode.Ok,
    );
    expect(JSON.parse((await admin('--json', 'merchant', 'show', id)).out).payinCallbackUrl).toBe(
      'https://93.184.216.34/callbacks/payin',
    );
    for (const bad of [[], ['ftp://example.com/cb'], ['http://10.0.0.5/cb'], ['https://93.184.216.34/cb', '--clear']]) {
      expect((await admin('merchant', 'set-callback-url', id, ...bad)).code).toBe(ExitCode.Usage);
    }
    expect((await admin('merchant', 'set-callback-url', id, '--clear')).code).toBe(ExitCode.Ok);
    expect((await prisma.merchant.findUniqueOrThrow({ where: { id: Number(id) } })).payinCallbackUrl).toBeNull();
  });

  it('refuses bad input with exit code 2 and a message, changing nothing', async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Kopi Kita');
    const id = String(JSON.parse(out).id);
    const badEntry = await admin('allowlist', 'set', id, '10.0.0.0/33');
    expect(badEntry).toMatchObject({ code: ExitCode.Usage });
    expect(badEntry.err).toContain('10.0.0.0/33');
    // An IPv4-mapped range shorter than /96 would have let every IPv4 client in.
    const wideMapped = await admin('allowlist', 'set', id, '203.0.113.0/24', '::ffff:10.0.0.0/80');
    expect(wideMapped).toMatchObject({ code: ExitCode.Usage });
    expect(wideMapped.err).toContain('::ffff:10.0.0.0/80');
    const badFee = await admin('merchant', 'set-fees', id, '--payout-fee', '-5');
    expect(badFee.code).toBe(ExitCode.Usage);
    expect(badFee.err).toContain('amount');
    expect((await admin('merchant', 'show', '987654')).code).toBe(ExitCode.Usage);
    expect((await admin('token', 'revoke', 'nope')).code).toBe(ExitCode.Usage);
    expect((await admin('no-such-command')).code).toBe(ExitCode.Usage);
    const m = await prisma.merchant.findUniqueOrThrow({ where: { id: Number(id) } });
    expect(m).toMatchObject({ ipAllowlist: [], payoutFeeFlat: 250000n });
  });

  it('ledger verify exits 0 when clean and 1 naming merchant and both values when a projection was altered', async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Verify Me');
    const merchantId = JSON.parse(out).id as number;
    await fundMerchant(prisma, merchantId, [500000n]);
    // Other suites share this database (and break facts on purpose): audit this merchant only.
    const clean = await admin('--json', 'ledger', 'verify', '--merchant', String(merchantId));
    expect(clean.code).toBe(ExitCode.Ok);
    expect(JSON.parse(clean.out)).toMatchObject({ merchantsChecked: 1, eventsChecked: 2, breaches: [], inFlight: [] });

    await prisma.$executeRaw`UPDATE balances SET pending = pending + 700 WHERE merchant_id = ${merchantId}`;
    const dirty = await admin('ledger', 'verify', '--merchant', String(merchantId));
    expect(dirty.code).toBe(ExitCode.Breach);
    expect(dirty.out).toContain(
      `balances ${merchantId} (merchant ${merchantId}) balance.pending: expected pending 0 (sum of the events); found pending 700`,
    );
    await prisma.$executeRaw`UPDATE balances SET pending = pending - 700 WHERE merchant_id = ${merchantId}`;
  });

  it("ledger trial-balance prints every account's debit or credit, balanced, now or at a past day's close; a future day is refused", async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Books Me');
    const merchantId = JSON.parse(out).id as number;
    await fundMerchant(prisma, merchantId, [500000n]);
    const now = await admin('--json', 'ledger', 'trial-balance');
    expect(now.code).toBe(ExitCode.Ok);
    const tb = JSON.parse(now.out);
    expect(tb).toMatchObject({ asOf: null, balanced: true });
    expect(tb.totalDebit).toBe(tb.totalCredit);
    expect(tb.lines).toContainEqual({
      account: `merchant:${merchantId}:available`,
      kind: 'liability',
      merchantId,
      debit: 0,
      credit: 5000,
    });
    const text = await admin('ledger', 'trial-balance');
    expect(text.out).toMatch(/^trial balance now: \d+ journal entries, balanced$/m);
    expect(text.out).toMatch(new RegExp(`^merchant:${merchantId}:available +liability +5,000\\.00$`, 'm'));

    // At yesterday's close (Jakarta) the merchant's money was not there yet.
    const yesterday = new Date(Date.now() + 7 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    const before = JSON.parse((await admin('--json', 'ledger', 'trial-balance', '--date', yesterday)).out);
    expect(before).toMatchObject({ asOf: yesterday, balanced: true });
    expect(before.lines.map((l: { account: string }) => l.account)).not.toContain(`merchant:${merchantId}:available`);

    const future = await admin('ledger', 'trial-balance', '--date', '2999-01-01');
    expect(future.code).toBe(ExitCode.Usage);
    expect(future.err).toContain('date 2999-01-01 is in the future');
  });

  it('ledger verify names a successful pay-in never booked, one line per breach and as JSON; within --grace it is in flight', async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Lost Pay-in');
    const merchantId = JSON.parse(out).id as number;
    await fundMerchant(prisma, merchantId, [500000n]);
    const payinId = await insertSuccessfulPayin(prisma, merchantId, 250_000n, 1_750n);

    const young = await admin('ledger', 'verify', '--merchant', String(merchantId));
    expect(young.code).toBe(ExitCode.Ok);
    expect(young.out).toContain(`in flight (< 300 s): payins ${payinId} (merchant ${merchantId}) payin.event_missing`);

    const strict = await admin('ledger', 'verify', '--merchant', String(merchantId), '--grace', '0');
    expect(strict.code).toBe(ExitCode.Breach);
    expect(strict.out.split('\n')).toEqual([
      expect.stringMatching(
        /^ledger BREACH: 1 breach\(es\) in 1 merchants, 2 events, 2 pay-ins, 1 settlements, 0 disbursements, 2 decisions; the books: 2 entries, 4 postings, 3 accounts$/,
      ),
      `  payins ${payinId} (merchant ${merchantId}) payin.event_missing: expected 1 payin.recorded event of pending +248250; found none`,
    ]);
    const json = await admin('--json', 'ledger', 'verify', '--merchant', String(merchantId), '--grace', '0');
    expect(json.code).toBe(ExitCode.Breach);
    expect(JSON.parse(json.out).breaches).toEqual([
      {
        check: 'payin.event_missing',
        table: 'payins',
        id: payinId,
        merchantId,
        expected: '1 payin.recorded event of pending +248250',
        found: 'none',
      },
    ]);
    expect((await admin('ledger', 'verify', '--grace', 'soon')).code).toBe(ExitCode.Usage);
  });

  it('sets the QRIS identity and settlement schedule, and requests a settlement for a cut-off once', async () => {
    const { out } = await admin('--json', 'merchant', 'create', '--name', 'Sate Pak Kumis');
    const merchantId = JSON.parse(out).id as number;
    expect(
      (
        await admin(
          'merchant',
          'set-qris',
          String(merchantId),
          '--nmid',
          'ID1020021181745',
          '--mcc',
          '5812',
          '--city',
          'Bandung',
        )
      ).code,
    ).toBe(ExitCode.Ok);
    expect((await admin('merchant', 'set-qris', String(merchantId), '--nmid', 'XX1')).code).toBe(ExitCode.Usage);
    expect(
      (await admin('merchant', 'set-settlement', String(merchantId), '--delay-days', '2', '--hour', '9')).code,
    ).toBe(ExitCode.Ok);
    expect((await admin('merchant', 'set-settlement', String(merchantId), '--hour', '24')).code).toBe(ExitCode.Usage);
    const shown = JSON.parse((await admin('--json', 'merchant', 'show', String(merchantId))).out);
    expect(shown).toMatchObject({
      qris: { nmid: 'ID1020021181745', mcc: '5812', city: 'Bandung' },
      settlement: 'T+2 at 09:00 Asia/Jakarta',
    });

    // A recorded pay-in; no ledger runs here, so the request stays in the outbox.
    await fundMerchant(prisma, merchantId, [100n]);
    const payinId = await insertSuccessfulPayin(prisma, merchantId, 1_000_000n, 0n);
    await ledgerFor(prisma).apply({
      type: 'payin.record',
      commandId: `payin:${payinId}`,
      merchantId,
      issuedAt: new Date().toISOString(),
      payinId,
      amount: '1000000',
      fee: '0',
    });
    const cutoff = new Date().toISOString();
    const first = JSON.parse(
      (await admin('--json', 'settlement', 'run', '--merchant', String(merchantId), '--cutoff', cutoff)).out,
    );
    expect(first).toMatchObject([{ merchantId, payinCount: 1, requested: true, credited: null }]);
    const second = JSON.parse(
      (await admin('--json', 'settlement', 'run', '--merchant', String(merchantId), '--cutoff', cutoff)).out,
    );
    expect(second).toMatchObject([{ merchantId, requested: false }]);
    expect(await prisma.outbox.count({ where: { topic: 'ledger.commands.v1', key: String(merchantId) } })).toBe(1);
    expect((await admin('settlement', 'run', '--cutoff', '2999-01-01T00:00:00Z')).code).toBe(ExitCode.Usage);
  });

  it.each([
    ['merchant', 'list'], // Prisma
    ['webhook', 'show', '00000000-0000-0000-0000-000000000000'], // plain pg
    ['migrate'],
  ])('reports an unreachable database as exit code 3 in one line, no stack (%s)', async (...argv) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      env: { DATABASE_URL: 'postgresql://nobody:secret@127.0.0.1:1/none' },
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect(code).toBe(ExitCode.Failure);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).not.toContain('\n');
    expect(err[0]).toMatch(
      /^error: cannot use the database at DATABASE_URL=postgresql:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none: .*(ECONNREFUSED|can't reach)/i,
    );
  });
  describe('dashboard users', () => {
    const linkToken = (out: string) => out.trim().split('\n').pop()?.split('/').pop() ?? '';
    const links = (userId: number) =>
      prisma.$queryRaw<
        { token_hash: string; used_at: Date | null }[]
      >`SELECT token_hash, used_at FROM dashboard_password_links WHERE user_id = ${userId} ORDER BY created_at, token_hash`;

    it('creates a merchant user and an operator, each with a one-time set-password link (only its hash stored)', async () => {
      const m = JSON.parse((await admin('--json', 'merchant', 'create', '--name', 'Toko Dashboard')).out);
      const created = await admin(
        'user',
        'create',
        '--merchant',
        String(m.id),
        '--email',
        'Owner@Toko-Dashboard.example',
      );
      expect(created.code).toBe(ExitCode.Ok);
      expect(created.out).toMatch(
        /^created merchant user \d+ owner@toko-dashboard\.example \(merchant \d+, owner\); one-time set-password link/,
      );
      expect(created.out.split('\n')[1]).toMatch(
        /^http:\/\/localhost:3000\/dashboard\/#\/set-password\/[A-Za-z0-9_-]{43}$/,
      );
      const [row] = await prisma.$queryRaw<
        { id: bigint; role: string; merchant_id: number; password_hash: string | null }[]
      >`SELECT * FROM dashboard_users WHERE email = 'owner@toko-dashboard.example'`;
      expect(row).toMatchObject({ role: 'merchant', merchant_id: m.id, password_hash: null });
      expect((await links(Number(row.id))).map((l) => l.token_hash)).toEqual([hashToken(linkToken(created.out))]);

      const out: string[] = [];
      const code = await runAdmin(['--json', 'user', 'create', '--operator', '--email', 'ops-cli@pay.example'], {
        env: { DATABASE_URL: process.env.DATABASE_URL, CONSOLE_PUBLIC_URL: 'https://console.pay.internal/console' },
        out: (l) => out.push(l),
        err: () => undefined,
      });
      expect(code).toBe(ExitCode.Ok);
      expect(JSON.parse(out.join(''))).toMatchObject({
        email: 'ops-cli@pay.example',
        role: 'operator',
        merchantId: null,
        setPasswordUrl: expect.stringMatching(
          /^https:\/\/console\.pay\.internal\/console\/#\/set-password\/[A-Za-z0-9_-]{43}$/,
        ),
      });

      const listed = JSON.parse((await admin('--json', 'user', 'list')).out);
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            email: 'owner@toko-dashboard.example',
            role: 'merchant',
            merchantId: m.id,
            passwordSet: false,
            totpEnabled: false,
            lockedUntil: null,
          }),
        ]),
      );
    });

    it.each([
      [['user', 'create', '--email', 'a@b.example'], 'give either --merchant <id> or --operator'],
      [
        ['user', 'create', '--operator', '--merchant', '1', '--email', 'a@b.example'],
        'give either --merchant <id> or --operator',
      ],
      [['user', 'create', '--operator', '--email', 'not-an-email'], 'email must be an email address'],
      [['user', 'create', '--merchant', '2000000000', '--email', 'a@b.example'], 'merchant 2000000000 not found'],
      [['user', 'create', '--merchant', 'x', '--email', 'a@b.example'], '--merchant: expected a merchant id'],
      [['user', 'reset-link', '--email', 'nobody@nowhere.example'], 'dashboard user nobody@nowhere.example not found'],
      [['user', 'unlock', '--email', 'nobody@nowhere.example'], 'dashboard user nobody@nowhere.example not found'],
      [['user', 'disable', '--email', 'nobody@nowhere.example'], 'dashboard user nobody@nowhere.example not found'],
      [['user', 'enable', '--email', 'nobody@nowhere.example'], 'dashboard user nobody@nowhere.example not found'],
    ])('refuses %j with exit code 2', async (argv, message) => {
      const r = await admin(...argv);
      expect(r.code).toBe(ExitCode.Usage);
      expect(r.err).toContain(message);
    });

    it('refuses a second user with the same email, whatever its case', async () => {
      expect((await admin('user', 'create', '--operator', '--email', 'twice@pay.example')).code).toBe(ExitCode.Ok);
      const again = await admin('user', 'create', '--operator', '--email', 'TWICE@pay.example');
      expect(again.code).toBe(ExitCode.Usage);
      expect(again.err).toBe('error: a user with email twice@pay.example already exists');
    });

    it('reset-link replaces the unused link; unlock clears a lockout', async () => {
      const user = await createDashboardUser(prisma);
      await prisma.$executeRaw`UPDATE dashboard_users SET failed_sign_ins = 3, locked_until = now() + interval '10 minutes' WHERE id = ${user.userId}`;
      expect(
        JSON.parse((await admin('--json', 'user', 'list')).out).find(
          (u: { userId: number }) => u.userId === user.userId,
        ).lockedUntil,
      ).not.toBeNull();
      const first = await admin('user', 'reset-link', '--email', user.email.toUpperCase());
      expect(first.code).toBe(ExitCode.Ok);
      const second = await admin('user', 'reset-link', '--email', user.email);
      const rows = await links(user.userId);
      expect(rows).toHaveLength(2);
      expect(rows.find((l) => l.token_hash === hashToken(linkToken(first.out)))?.used_at).not.toBeNull();
      expect(rows.find((l) => l.token_hash === hashToken(linkToken(second.out)))?.used_at).toBeNull();

      const unlocked = await admin('user', 'unlock', '--email', user.email);
      expect(unlocked.code).toBe(ExitCode.Ok);
      expect(unlocked.out).toBe(`user ${user.userId} ${user.email} unlocked`);
      const [row] = await prisma.$queryRaw<
        { failed_sign_ins: number; locked_until: Date | null }[]
      >`SELECT failed_sign_ins, locked_until FROM dashboard_users WHERE id = ${user.userId}`;
      expect(row).toEqual({ failed_sign_ins: 0, locked_until: null });
    });

    it("disable ends the user's sessions and unused links at once; enable lets it sign in again", async () => {
      const user = await createDashboardUser(prisma);
      await prisma.$executeRaw`INSERT INTO dashboard_sessions (id_hash, user_id, csrf_token, expires_at, authenticated_at) VALUES (${hashToken(`cli-${user.userId}`)}, ${user.userId}, 'csrf', now() + interval '1 hour', now())`;
      const link = await admin('user', 'reset-link', '--email', user.email);
      const disabled = await admin('user', 'disable', '--email', user.email.toUpperCase());
      expect(disabled.code).toBe(ExitCode.Ok);
      expect(disabled.out).toBe(`user ${user.userId} ${user.email} disabled; its sessions are ended`);
      const [row] = await prisma.$queryRaw<
        { disabled_at: Date | null }[]
      >`SELECT disabled_at FROM dashboard_users WHERE id = ${user.userId}`;
      expect(row.disabled_at).not.toBeNull();
      const sessions = await prisma.$queryRaw<
        { revoked_at: Date | null }[]
      >`SELECT revoked_at FROM dashboard_sessions WHERE user_id = ${user.userId}`;
      expect(sessions).toHaveLength(1);
      expect(sessions[0].revoked_at).not.toBeNull();
      expect(
        (await links(user.userId)).find((l) => l.token_hash === hashToken(linkToken(link.out)))?.used_at,
      ).not.toBeNull();
      expect(
        JSON.parse((await admin('--json', 'user', 'list')).out).find(
          (u: { userId: number }) => u.userId === user.userId,
        ),
      ).toMatchObject({ disabled: true });
      expect((await admin('user', 'list')).out).toMatch(new RegExp(`^${user.userId}\\t.*\\tdisabled\\t`, 'm'));

      const enabled = await admin('--json', 'user', 'enable', '--email', user.email);
      expect(enabled.code).toBe(ExitCode.Ok);
      expect(JSON.parse(enabled.out)).toMatchObject({ userId: user.userId, disabled: false });
      // Its sessions stay ended.
      expect(
        (
          await prisma.$queryRaw<
            { revoked_at: Date | null }[]
          >`SELECT revoked_at FROM dashboard_sessions WHERE user_id = ${user.userId}`
        )[0].revoked_at,
      ).not.toBeNull();
    });
  });

  it('payout reverse: a success is reversed (audited as the CLI, with the reason), again changes nothing; a pending one is refused (exit 2)', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const amounts = { amount: 100_000_00n, fee: 2_500_00n };
    const { disbursement: paid } = await createDisbursement(prisma, merchant.id, { ...amounts, outcome: 'success' });
    const { disbursement: pending } = await createDisbursement(prisma, merchant.id, { ...amounts, outcome: 'pending' });

    const first = await admin('--json', 'payout', 'reverse', paid.id, '--reason', 'Returned by BCA: account closed');
    expect(first.code).toBe(ExitCode.Ok);
    expect(JSON.parse(first.out)).toMatchObject({
      disbursementId: paid.id,
      status: 'reversed',
      reason: 'Returned by BCA: account closed',
      returned: 102500,
      alreadyReversed: false,
    });
    const again = await admin('payout', 'reverse', paid.id, '--reason', 'Returned by BCA: account closed');
    expect(again.code).toBe(ExitCode.Ok);
    expect(again.out).toContain('already reversed');
    expect(
      await prisma.outbox.count({ where: { payload: { path: ['commandId'], equals: `payout.reverse:${paid.id}` } } }),
    ).toBe(1);
    const audit = await prisma.$queryRaw<{ actor: string; action: string; details: { options: object } }[]>`
      SELECT actor, action, details FROM operator_audit_log WHERE target = ${`disbursement:${paid.id}`} ORDER BY id`;
    expect(audit[0]).toMatchObject({
      actor: expect.stringMatching(/^cli:/),
      action: 'disbursement.reverse',
      details: { options: { reason: 'Returned by BCA: account closed' } },
    });

    const refused = await admin('payout', 'reverse', pending.id, '--reason', 'x');
    expect(refused.code).toBe(ExitCode.Usage);
    expect(refused.err).toContain('Only a successful disbursement can be reversed');
    expect((await prisma.disbursement.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe('pending');
  });

  it("adjustment: the CLI cannot approve what it asked (exit 2); it approves an operator's request, the ledger books it, list shows applied; reject wants a note", async () => {
    const { merchant } = await createMerchant(prisma);
    const line = (account: string, amount: string) => ['--line', `${account}=${amount}`];
    const asked = await admin(
      '--json',
      'adjustment',
      'request',
      '--merchant',
      String(merchant.id),
      ...line('expense:adjustments', '250'),
      ...line(`merchant:${merchant.id}:available`, '-250'),
      '--reason',
      'Goodwill, ticket OPS-9',
    );
    expect(asked.code).toBe(ExitCode.Ok);
    const mine = JSON.parse(asked.out);
    expect(mine).toMatchObject({
      status: 'requested',
      requestedBy: expect.stringMatching(/^cli:/),
      merchantId: merchant.id,
    });
    const own = await admin('adjustment', 'approve', mine.id);
    expect(own.code).toBe(ExitCode.Usage);
    expect(own.err).toContain('another operator must approve or reject it');
    const unbalanced = await admin(
      'adjustment',
      'request',
      ...line('suspense', '1'),
      ...line('expense:adjustments', '2'),
      '--reason',
      'x',
    );
    expect(unbalanced.code).toBe(ExitCode.Usage);
    expect(unbalanced.err).toContain('must balance');

    // An operator of the console asks; the CLI (another actor) approves.
    const user = await createDashboardUser(prisma);
    const pool = createPgPool(process.env.DATABASE_URL as string, 1);
    const theirs = await new BookAdjustments(pool)
      .request(
        {
          merchantId: merchant.id,
          postings: [
            { account: 'expense:adjustments', amount: '100' },
            { account: `merchant:${merchant.id}:available`, amount: '-100' },
          ],
          reason: 'Goodwill from the console',
        },
        (action, target) => ({ operatorUserId: user.userId, action, target, details: {}, logId: randomUUID() }),
      )
      .finally(() => pool.end());
    const noNote = await admin('adjustment', 'reject', theirs.id);
    expect(noNote.code).toBe(ExitCode.Usage);
    const approved = await admin('--json', 'adjustment', 'approve', theirs.id, '--note', 'ok');
    expect(approved.code).toBe(ExitCode.Ok);
    expect(JSON.parse(approved.out)).toMatchObject({ status: 'approved', ledger: { outcome: 'pending' } });
    const [row] = await prisma.outbox.findMany({ where: { payload: { path: ['adjustmentId'], equals: theirs.id } } });
    expect(await ledgerFor(prisma).apply(parseLedgerCommand(row.payload))).toMatchObject({ outcome: 'applied' });
    expect((await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).available).toBe(100_00n);

    const listed = await admin('adjustment', 'list', '--merchant', String(merchant.id));
    expect(listed.code).toBe(ExitCode.Ok);
    expect(listed.out).toContain(`adjustment ${theirs.id} merchant ${merchant.id}: approved by cli:`);
    expect(listed.out).toContain('ledger: applied');
    expect(listed.out).toContain(`adjustment ${mine.id} merchant ${merchant.id}: requested`);
    const audit = await prisma.$queryRaw<{ actor: string | null; action: string; details: object }[]>`
      SELECT actor, action, details FROM operator_audit_log WHERE target = ${`adjustment:${theirs.id}`} ORDER BY id`;
    expect(audit.map((a) => [a.action, a.details])).toEqual([
      ['adjustment.request', expect.objectContaining({ reason: 'Goodwill from the console' })],
      ['adjustment.approve', { note: 'ok' }],
    ]);
    expect(audit[1].actor).toMatch(/^cli:/);
  });
});
