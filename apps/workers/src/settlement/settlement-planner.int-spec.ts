import { randomBytes } from 'node:crypto';
import { ledgerCommandId, Topic } from '@pay/contracts';
import { dueSettlementCutoff } from '@pay/domain';
import {
  applyMigrations,
  createPrismaClient,
  dropDatabase,
  ensureDatabase,
  type PrismaClient,
  SettlementPlanner,
} from '@pay/persistence';
import { createMerchant, insertPayin, ledgerFor, MIGRATIONS_DIR } from '@pay/testing';

/**
 * The settlement scan (SettlementPlanner.planDue) on real Postgres: only merchants with a recorded
 * pay-in older than their cut-off get a planning transaction; the others (nothing unsettled,
 * only recent pay-ins, only unrecorded ones) are passed over by the one statement that finds them.
 */
describe('SettlementPlanner.planDue (real Postgres)', () => {
  // Its own database: the scan plans every merchant, which must not be other suites' merchants.
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${url.pathname.slice(1)}_settle_${randomBytes(3).toString('hex')}`;
  let prisma: PrismaClient;
  let planner: SettlementPlanner;
  const now = new Date();
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

  beforeAll(async () => {
    await ensureDatabase(url.toString());
    await applyMigrations(url.toString(), MIGRATIONS_DIR);
    prisma = createPrismaClient(url.toString(), 4);
    planner = new SettlementPlanner(prisma);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await dropDatabase(url.toString());
  });

  /** A pay-in that succeeded at `successAt`, recorded by the ledger unless `recorded` is false. */
  const payin = async (merchantId: number, successAt: Date, recorded = true) => {
    const id = await insertPayin(prisma, merchantId, 1_000_000n, 10_000n);
    if (recorded) {
      await ledgerFor(prisma).apply({
        type: 'payin.record',
        commandId: `payin:${id}`,
        merchantId,
        issuedAt: now.toISOString(),
        payinId: id,
        amount: '1000000',
        fee: '10000',
      });
    }
    await prisma.payin.update({ where: { id }, data: { successAt } });
    return id;
  };
  const commandsFor = (merchantId: number) =>
    prisma.outbox.count({
      where: { topic: Topic.LedgerCommands, payload: { path: ['merchantId'], equals: merchantId } },
    });

  it('plans only the merchants with a recorded pay-in before their cut-off, once per cut-off', async () => {
    const due = (await createMerchant(prisma)).merchant;
    const recent = (await createMerchant(prisma)).merchant;
    const unrecorded = (await createMerchant(prisma)).merchant;
    const idle = (await createMerchant(prisma)).merchant;
    const old = await payin(due.id, daysAgo(3));
    const older = await payin(due.id, daysAgo(4));
    await payin(due.id, now); // after the cut-off: waits for the next one
    await payin(recent.id, now);
    await payin(unrecorded.id, daysAgo(3), false);

    const planned = await planner.planDue(now);
    const cutoff = dueSettlementCutoff(now, due.settlementDelayDays, due.settlementHour);
    expect(planned).toEqual([
      expect.objectContaining({ merchantId: due.id, cutoffAt: cutoff, payinCount: 2, requested: true }),
    ]);
    const [command] = await prisma.outbox.findMany({
      where: { topic: Topic.LedgerCommands, payload: { path: ['type'], equals: 'settlement.credit' } },
    });
    expect((command.payload as { payinIds: string[] }).payinIds).toEqual([older, old]);
    for (const m of [recent, unrecorded, idle]) expect(await commandsFor(m.id)).toBe(0);

    // Scanning again before the ledger credits it: the same command, not written twice.
    expect(await planner.planDue(now)).toEqual([expect.objectContaining({ merchantId: due.id, requested: false })]);
    expect(await commandsFor(due.id)).toBe(1);
    // One merchant only.
    expect(await planner.planDue(now, recent.id)).toEqual([]);
    expect(await planner.planDue(now, due.id)).toEqual([
      expect.objectContaining({ merchantId: due.id, requested: false }),
    ]);
  });

  it('passes over a merchant whose due pay-ins are all settled', async () => {
    const { merchant } = await createMerchant(prisma);
    const id = await payin(merchant.id, daysAgo(3));
    const cutoff = dueSettlementCutoff(now, merchant.settlementDelayDays, merchant.settlementHour);
    const planned = await planner.planDue(now, merchant.id);
    expect(planned).toEqual([expect.objectContaining({ requested: true, payinCount: 1 })]);
    await ledgerFor(prisma).apply({
      type: 'settlement.credit',
      commandId: ledgerCommandId.settlementCredit(planned[0].settlementId),
      merchantId: merchant.id,
      issuedAt: now.toISOString(),
      settlementId: planned[0].settlementId,
      payinIds: [id],
      cutoffAt: cutoff.toISOString(),
    });
    expect((await prisma.payin.findUniqueOrThrow({ where: { id } })).settlementId).toBe(planned[0].settlementId);
    expect(await planner.planDue(now, merchant.id)).toEqual([]);
  });
});
