import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant } from '@pay/testing';
import { ExitCode } from './admin';
import { adminRunner } from './admin-runner';

/** Merchant users' roles from the admin CLI (docs/access.md): created with one, changed, audited; a merchant keeps an owner. */
describe('admin user create --role, user set-role (real Postgres)', () => {
  let prisma: PrismaClient;
  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
  });
  afterAll(() => prisma.$disconnect());

  const admin = adminRunner();
  const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@roles.example`;
  const roleOf = async (address: string) =>
    (
      await prisma.$queryRaw<
        { merchant_role: string | null }[]
      >`SELECT merchant_role FROM dashboard_users WHERE email = ${address}`
    )[0]?.merchant_role;

  it('creates a merchant user with a role (owner when none is given), changes it, audited', async () => {
    const { merchant } = await createMerchant(prisma);
    const [owner, finance] = [email('owner'), email('finance')];
    expect((await admin('user', 'create', '--merchant', String(merchant.id), '--email', owner)).code).toBe(ExitCode.Ok);
    const created = await admin(
      '--json',
      'user',
      'create',
      '--merchant',
      String(merchant.id),
      '--email',
      finance,
      '--role',
      'finance',
    );
    expect(created.code).toBe(ExitCode.Ok);
    expect(JSON.parse(created.out)).toMatchObject({ email: finance, role: 'merchant', merchantRole: 'finance' });
    expect(await roleOf(owner)).toBe('owner');
    expect(await roleOf(finance)).toBe('finance');

    const changed = await admin('--json', 'user', 'set-role', '--email', finance, '--role', 'viewer');
    expect(changed.code).toBe(ExitCode.Ok);
    expect(JSON.parse(changed.out)).toMatchObject({ email: finance, merchantRole: 'viewer' });
    expect(await roleOf(finance)).toBe('viewer');
    const audit = await prisma.$queryRaw<{ action: string; target: string }[]>`
      SELECT action, target FROM operator_audit_log WHERE action = 'dashboard-user.role' AND target = ${`dashboard-user:${JSON.parse(changed.out).userId}`}`;
    expect(audit).toHaveLength(1);
  });

  it('refuses an unknown role, a role for an operator, and leaving a merchant without an enabled owner', async () => {
    const { merchant } = await createMerchant(prisma);
    const [owner, second] = [email('owner'), email('second')];
    await admin('user', 'create', '--merchant', String(merchant.id), '--email', owner);
    const bad = await admin(
      'user',
      'create',
      '--merchant',
      String(merchant.id),
      '--email',
      email('x'),
      '--role',
      'admin',
    );
    expect(bad.code).not.toBe(ExitCode.Ok);
    expect(bad.err).toMatch(/merchantRole must be one of owner, developer, finance, viewer/);
    const operator = await admin('user', 'create', '--operator', '--email', email('op'), '--role', 'viewer');
    expect(operator.code).not.toBe(ExitCode.Ok);
    expect(operator.err).toMatch(/an operator has no role/);

    // The only owner can be neither demoted nor disabled; nothing changes.
    const demote = await admin('user', 'set-role', '--email', owner, '--role', 'developer');
    expect(demote.code).not.toBe(ExitCode.Ok);
    expect(demote.err).toMatch(new RegExp(`merchant ${merchant.id} must keep at least one owner`));
    const disable = await admin('user', 'disable', '--email', owner);
    expect(disable.code).not.toBe(ExitCode.Ok);
    expect(disable.err).toMatch(/must keep at least one owner/);
    expect(await roleOf(owner)).toBe('owner');
    expect(
      (
        await prisma.$queryRaw<
          { disabled_at: Date | null }[]
        >`SELECT disabled_at FROM dashboard_users WHERE email = ${owner}`
      )[0].disabled_at,
    ).toBeNull();

    // With a second owner, the first may step down; then the second is the last.
    await admin('user', 'create', '--merchant', String(merchant.id), '--email', second, '--role', 'owner');
    expect((await admin('user', 'set-role', '--email', owner, '--role', 'developer')).code).toBe(ExitCode.Ok);
    expect((await admin('user', 'set-role', '--email', second, '--role', 'viewer')).code).not.toBe(ExitCode.Ok);
    expect(await roleOf(second)).toBe('owner');
  });

  it('of two owners demoted at once, one stays owner', async () => {
    const { merchant } = await createMerchant(prisma);
    const [a, b] = [email('a'), email('b')];
    await admin('user', 'create', '--merchant', String(merchant.id), '--email', a);
    await admin('user', 'create', '--merchant', String(merchant.id), '--email', b);
    const results = await Promise.all([
      admin('user', 'set-role', '--email', a, '--role', 'viewer'),
      admin('user', 'set-role', '--email', b, '--role', 'viewer'),
    ]);
    expect(results.filter((r) => r.code === ExitCode.Ok)).toHaveLength(1);
    expect([await roleOf(a), await roleOf(b)].sort()).toEqual(['owner', 'viewer']);
  });
});
