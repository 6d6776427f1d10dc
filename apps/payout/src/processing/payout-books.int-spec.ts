import { SANDBOX_ACCOUNTS, SandboxBankRail } from '@pay/bank-rail';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import { createPgPool, createPrismaClient, PayoutRepository, type PrismaClient, verifyLedger } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createDisbursement, createMerchant, fundMerchant, ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { PayoutProcessor } from './payout.processor';

/**
 * A payout's life in the platform's books (issue 43): the claim that submits it to the rail sends
 * it (payouts:payable -> rail:<rail>:in_transit), its success confirms it (in transit -> the bank's
 * cash), its failure once sent refunds it from in transit. The ledger applies what the payout
 * service wrote, in the outbox's order, as it would from the bus; a command delivered again
 * changes nothing, and the audit of the merchant is clean.
 */
describe('payouts in the books (real Postgres, the processor, the ledger)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let processor: PayoutProcessor;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    processor = new PayoutProcessor(
      new PayoutRepository(pool),
      new SandboxBankRail(pool, { latencyMs: 0, delayMs: 60_000 }),
      createLogger('test', 'fatal'),
      { batchSize: 16, leaseMs: 30_000, timeoutRetryMs: 2_000 },
    );
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  const available = async (merchantId: number) =>
    (await prisma.balance.findUniqueOrThrow({ where: { merchantId } })).available;

  /** The payout's ledger commands in the outbox (its debit aside, which the fixture applied), in order */
  const commandsOf = async (payoutId: string) =>
    (
      await prisma.outbox.findMany({
        where: { topic: Topic.LedgerCommands, payload: { path: ['payoutId'], equals: payoutId } },
        orderBy: { id: 'asc' },
      })
    )
      .map((row) => parseLedgerCommand(row.payload))
      .filter((c) => c.type !== 'payout.debit');

  /** Applies them as the ledger would from the bus; the outcome of each */
  const ledgerApplies = async (payoutId: string) => {
    const outcomes: string[] = [];
    for (const command of await commandsOf(payoutId))
      outcomes.push(`${command.type} ${(await ledgerFor(prisma).apply(command)).outcome}`);
    return outcomes;
  };

  /** Every journal entry about the payout, each with its postings */
  const booksOf = async (payoutId: string) => {
    const rows = await prisma.$queryRaw<{ id: bigint; type: string; account: string; amount: bigint }[]>`
      SELECT e.id, e.type, p.account, p.amount FROM journal_entries e JOIN postings p ON p.entry_id = e.id
       WHERE e.reference = ${payoutId} ORDER BY e.id, p.account`;
    const entries = new Map<bigint, { type: string; postings: Record<string, bigint> }>();
    for (const r of rows) {
      const entry = entries.get(r.id) ?? { type: r.type, postings: {} };
      entry.postings[r.account] = r.amount;
      entries.set(r.id, entry);
    }
    return [...entries.values()];
  };

  async function debitedPayout(accountNo?: string) {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const funded = await available(merchant.id);
    const { disbursement } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'debited',
    });
    if (accountNo) await prisma.disbursement.update({ where: { id: disbursement.id }, data: { accountNo } });
    return { merchantId: merchant.id, funded, id: disbursement.id };
  }

  it('a paid payout: payable -> the rail in transit (sent) -> the bank cash (confirmed); again, nothing changes; the audit is clean', async () => {
    const { merchantId, funded, id } = await debitedPayout();
    expect((await processor.processDue([id])).claimed).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'success' });

    expect(await ledgerApplies(id)).toEqual(['payout.send applied', 'payout.confirm applied']);
    expect(await booksOf(id)).toEqual([
      {
        type: 'payout.debited',
        postings: {
          [`merchant:${merchantId}:available`]: 102_500_00n,
          'payouts:payable': -100_000_00n,
          'revenue:fees:payout': -2_500_00n,
        },
      },
      { type: 'payout.sent', postings: { 'payouts:payable': 100_000_00n, 'rail:sandbox:in_transit': -100_000_00n } },
      {
        type: 'payout.confirmed',
        postings: { 'rail:sandbox:in_transit': 100_000_00n, 'bank:sandbox:cash': -100_000_00n },
      },
    ]);
    expect(await available(merchantId)).toBe(funded - 102_500_00n);

    // Redelivered by the bus: the ledger answers each command as the first time and books nothing more.
    const first = await Promise.all((await commandsOf(id)).map((c) => ledgerFor(prisma).apply(c)));
    expect(await ledgerApplies(id)).toEqual(['payout.send applied', 'payout.confirm applied']);
    expect(await Promise.all((await commandsOf(id)).map((c) => ledgerFor(prisma).apply(c)))).toEqual(first);
    // Another round (a lapsed lease, a wake-up): nothing due, nothing written.
    await processor.processDue([id]);
    expect((await commandsOf(id)).map((c) => c.type)).toEqual(['payout.send', 'payout.confirm']);
    expect(await booksOf(id)).toHaveLength(3);
    expect(await available(merchantId)).toBe(funded - 102_500_00n);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
  });

  it('a payout the bank refused once sent: the refund takes its amount back from in transit; the audit is clean', async () => {
    const { merchantId, funded, id } = await debitedPayout(SANDBOX_ACCOUNTS.rejected.bank);
    await processor.processDue([id]);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed' });

    expect(await ledgerApplies(id)).toEqual(['payout.send applied', 'payout.refund applied']);
    const [, sent, refunded] = await booksOf(id);
    expect(sent.postings).toEqual({ 'payouts:payable': 100_000_00n, 'rail:sandbox:in_transit': -100_000_00n });
    expect(refunded).toEqual({
      type: 'payout.refunded',
      postings: {
        [`merchant:${merchantId}:available`]: -102_500_00n,
        'rail:sandbox:in_transit': 100_000_00n,
        'revenue:fees:payout': 2_500_00n,
      },
    });
    expect(await available(merchantId)).toBe(funded);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
  });
});
