import { randomUUID } from 'node:crypto';
import { parseLedgerCommand, type LedgerCommand } from '@pay/contracts';
import { parseAmount } from '@pay/domain';
import { createPgPool, createPrismaClient, verifyLedger, type PrismaClient } from '@pay/persistence';
import type { Pool } from 'pg';
import { createMerchant, directPayoutId, insertSuccessfulPayin } from '@pay/testing';
import { LedgerService } from '@pay/ledger-core';

const issuedAt = new Date().toISOString();
const cmd = {
  recordPayin: (merchantId: number, payinId: string, amount: bigint, fee: bigint, mark: object = {}): LedgerCommand =>
    parseLedgerCommand(
      JSON.stringify({
        type: 'payin.record',
        commandId: `payin:${payinId}`,
        merchantId,
        issuedAt,
        payinId,
        amount: String(amount),
        fee: String(fee),
        ...mark,
      }),
    ),
  settle: (merchantId: number, payinIds: string[], settlementId = randomUUID()): LedgerCommand =>
    parseLedgerCommand(
      JSON.stringify({
        type: 'settlement.credit',
        commandId: `settle:${settlementId}`,
        merchantId,
        issuedAt,
        settlementId,
        payinIds,
      }),
    ),
  debit: (merchantId: number, payoutId: string, amount: bigint, fee: bigint): LedgerCommand =>
    parseLedgerCommand(
      JSON.stringify({
        type: 'payout.debit',
        commandId: `debit:${payoutId}`,
        merchantId,
        issuedAt,
        payoutId,
        amount: String(amount),
        fee: String(fee),
      }),
    ),
  refund: (merchantId: number, payoutId: string, commandId = `refund:${payoutId}`): LedgerCommand =>
    parseLedgerCommand(
      JSON.stringify({ type: 'payout.refund', commandId, merchantId, issuedAt, payoutId, reason: 'bank rejected' }),
    ),
};

describe('LedgerService (real Postgres)', () => {
  let prisma: PrismaClient;
  let ledger: LedgerService;
  let pool: Pool;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 10);
    // As many connections as the concurrency tests have callers, so they race on the row lock, not the pool.
    pool = createPgPool(process.env.DATABASE_URL as string, 60);
    ledger = new LedgerService(pool);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  const balanceOf = async (merchantId: number) => {
    const b = await prisma.balance.findUniqueOrThrow({ where: { merchantId } });
    return { available: b.available, pending: b.pending };
  };

  /** Funds a merchant through the real path: pay-ins recorded, then settled. */
  async function fund(merchantId: number, amounts: bigint[]) {
    const ids: string[] = [];
    for (const amount of amounts) {
      const id = await insertSuccessfulPayin(prisma, merchantId, amount, 0n);
      await ledger.apply(cmd.recordPayin(merchantId, id, amount, 0n));
      ids.push(id);
    }
    await ledger.apply(cmd.settle(merchantId, ids));
  }

  it('records a pay-in net of fee into pending (50000 with fee 500 adds 49500), and a settlement moves it to available', async () => {
    const { merchant } = await createMerchant(prisma);
    const payinId = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(50000), parseAmount(500));

    const recorded = await ledger.apply(cmd.recordPayin(merchant.id, payinId, parseAmount(50000), parseAmount(500)));
    expect(recorded).toMatchObject({ outcome: 'applied', seq: '1', balance: { available: '0', pending: '4950000' } });
    expect(await balanceOf(merchant.id)).toEqual({ available: 0n, pending: parseAmount(49500) });

    const settled = await ledger.apply(cmd.settle(merchant.id, [payinId]));
    expect(settled).toMatchObject({ outcome: 'applied', seq: '2' });
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(49500), pending: 0n });
    const payin = await prisma.payin.findUniqueOrThrow({ where: { id: payinId } });
    expect(payin.settlementId).not.toBeNull();

    // The same pay-in cannot be settled twice.
    const again = await ledger.apply(cmd.settle(merchant.id, [payinId]));
    expect(again).toMatchObject({ outcome: 'rejected', reason: 'PAYINS_NOT_SETTLEABLE' });
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(49500), pending: 0n });
  });

  it('refuses to record a pay-in whose amount or fee differs from the stored pay-in', async () => {
    const { merchant } = await createMerchant(prisma);
    const payinId = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(10000), parseAmount(220));
    const outcome = await ledger.apply(cmd.recordPayin(merchant.id, payinId, parseAmount(10000), 0n));
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'PAYIN_NOT_RECORDABLE' });
    expect(await balanceOf(merchant.id)).toEqual({ available: 0n, pending: 0n });
  });

  it('records a sandbox pay-in as sandbox money: the event carries the mark, and what the merchant received of it only grows', async () => {
    const { merchant } = await createMerchant(prisma);
    const sandboxPayin = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(50000), parseAmount(500));
    await prisma.payin.update({ where: { id: sandboxPayin }, data: { sandbox: true } });
    const acquirerPayin = await insertSuccessfulPayin(prisma, merchant.id, parseAmount(20000), 0n);
    const sandboxReceived = async () =>
      (await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).sandboxReceived;

    // A command must say what the pay-in is: an unmarked command of a sandbox pay-in, or a marked one of the acquirer's, is refused.
    const unmarked = await ledger.apply(
      cmd.recordPayin(merchant.id, sandboxPayin, parseAmount(50000), parseAmount(500)),
    );
    expect(unmarked).toMatchObject({
      outcome: 'rejected',
      reason: 'PAYIN_NOT_RECORDABLE',
      detail: { payinId: sandboxPayin, sandbox: 'true' },
    });
    const wronglyMarked = await ledger.apply({
      ...cmd.recordPayin(merchant.id, acquirerPayin, parseAmount(20000), 0n, { sandbox: true }),
      commandId: `payin:marked:${acquirerPayin}`,
    });
    expect(wronglyMarked).toMatchObject({ outcome: 'rejected', reason: 'PAYIN_NOT_RECORDABLE' });
    expect(await sandboxReceived()).toBe(0n);

    const sandboxCommand = cmd.recordPayin(merchant.id, sandboxPayin, parseAmount(50000), parseAmount(500), {
      sandbox: true,
    });
    expect(await ledger.apply({ ...sandboxCommand, commandId: `payin:marked:${sandboxPayin}` })).toMatchObject({
      outcome: 'applied',
      balance: { available: '0', pending: '4950000' },
    });
    expect(await sandboxReceived()).toBe(parseAmount(49500));
    const event = await prisma.ledgerEvent.findFirstOrThrow({ where: { reference: sandboxPayin } });
    expect(event.payload).toEqual({
      payinId: sandboxPayin,
      amount: '5000000',
      fee: '50000',
      net: '4950000',
      sandbox: true,
    });
    const published = await prisma.outbox.findFirstOrThrow({
      where: {
        topic: 'ledger.events.v1',
        AND: [
          { payload: { path: ['reference'], equals: sandboxPayin } },
          { payload: { path: ['kind'], equals: 'event' } },
        ],
      },
    });
    expect(published.payload).toMatchObject({ kind: 'event', eventType: 'payin.recorded', payload: { sandbox: true } });

    // The acquirer's pay-in, the settlement and a payout leave it as it is.
    await ledger.apply(cmd.recordPayin(merchant.id, acquirerPayin, parseAmount(20000), 0n));
    await ledger.apply(cmd.settle(merchant.id, [sandboxPayin, acquirerPayin]));
    await ledger.apply(cmd.debit(merchant.id, directPayoutId(), parseAmount(60000), parseAmount(2500)));
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(7000), pending: 0n });
    expect(await sandboxReceived()).toBe(parseAmount(49500));
    expect(await verifyLedger(prisma, { merchantIds: [merchant.id] })).toMatchObject({ breaches: [] });
  });

  it('applies a command delivered twice exactly once and answers the redelivery with the original outcome', async () => {
    const { merchant } = await createMerchant(prisma);
    await fund(merchant.id, [parseAmount(100000)]);
    const debit = cmd.debit(merchant.id, directPayoutId(), parseAmount(10000), parseAmount(2500));

    const first = await ledger.apply(debit);
    const second = await ledger.apply(debit);
    const [third, fourth] = await Promise.all([ledger.apply(debit), ledger.apply(debit)]);

    expect(first.outcome).toBe('applied');
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(fourth).toEqual(first);
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(100000 - 12500), pending: 0n });
    expect(await prisma.ledgerEvent.count({ where: { commandId: debit.commandId } })).toBe(1);
    expect(await prisma.outbox.count({ where: { key: String(merchant.id) } })).toBe(3); // record, settle, debit
  });

  it('answers a redelivered rejection with the same rejection, even after the balance changed', async () => {
    const { merchant } = await createMerchant(prisma);
    const debit = cmd.debit(merchant.id, directPayoutId(), parseAmount(10000), parseAmount(2500));
    const first = await ledger.apply(debit);
    expect(first).toMatchObject({
      outcome: 'rejected',
      reason: 'INSUFFICIENT_BALANCE',
      detail: { available: '0', required: '1250000' },
    });
    await fund(merchant.id, [parseAmount(50000)]);
    expect(await ledger.apply(debit)).toEqual(first);
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(50000), pending: 0n });
  });

  it('lets exactly the affordable payouts of 50 concurrent debits through and never overdraws', async () => {
    const { merchant } = await createMerchant(prisma);
    await fund(merchant.id, [parseAmount(250000)]);
    // Each payout needs 10000 + 2500 = 12500; 250000 covers exactly 20 of them.
    const commands = Array.from({ length: 50 }, () =>
      cmd.debit(merchant.id, directPayoutId(), parseAmount(10000), parseAmount(2500)),
    );
    const outcomes = await Promise.all(commands.map((c) => ledger.apply(c)));

    const applied = outcomes.filter((o) => o.outcome === 'applied');
    const rejected = outcomes.filter((o) => o.outcome === 'rejected');
    expect(applied).toHaveLength(20);
    expect(rejected).toHaveLength(30);
    expect(rejected.every((o) => o.outcome === 'rejected' && o.reason === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect(await balanceOf(merchant.id)).toEqual({ available: 0n, pending: 0n });

    // Sequence numbers are gap-free and the running balance never dipped below zero.
    const events = await prisma.ledgerEvent.findMany({ where: { merchantId: merchant.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => BigInt(i + 1)));
    let running = 0n;
    for (const e of events) {
      running += e.availableDelta;
      expect(running >= 0n).toBe(true);
    }
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  it('refunds exactly the debited total once, and refuses a refund of a payout never debited', async () => {
    const { merchant } = await createMerchant(prisma);
    await fund(merchant.id, [parseAmount(20000)]);
    const payoutId = directPayoutId();
    await ledger.apply(cmd.debit(merchant.id, payoutId, parseAmount(10000), parseAmount(2500)));
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(7500), pending: 0n });

    const refund = await ledger.apply(cmd.refund(merchant.id, payoutId));
    expect(refund.outcome).toBe('applied');
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(20000), pending: 0n });

    // A second refund under another command id is refused: one refund per payout.
    const twice = await ledger.apply(cmd.refund(merchant.id, payoutId, `refund-again:${payoutId}`));
    expect(twice).toMatchObject({ outcome: 'rejected', reason: 'DUPLICATE_REFERENCE' });
    const never = await ledger.apply(cmd.refund(merchant.id, randomUUID()));
    expect(never).toMatchObject({ outcome: 'rejected', reason: 'PAYOUT_NOT_DEBITED' });
    expect(await balanceOf(merchant.id)).toEqual({ available: parseAmount(20000), pending: 0n });
  });

  it('rejects commands for an unknown merchant without writing an event', async () => {
    const outcome = await ledger.apply(cmd.debit(999999, randomUUID(), 100n, 0n));
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'MERCHANT_UNKNOWN' });
    expect(await prisma.ledgerEvent.count({ where: { merchantId: 999999 } })).toBe(0);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on ledger_events at the database', async () => {
    const { merchant } = await createMerchant(prisma);
    await fund(merchant.id, [parseAmount(1000)]);
    await expect(
      prisma.$executeRaw`UPDATE ledger_events SET available_delta = 999999 WHERE merchant_id = ${merchant.id}`,
    ).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`DELETE FROM ledger_events WHERE merchant_id = ${merchant.id}`).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.$executeRaw`TRUNCATE ledger_events CASCADE`).rejects.toThrow(/append-only/);
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id } })).toBe(2);
  });

  it("verify finds a projection row altered behind the ledger's back, naming the merchant and both values", async () => {
    const { merchant } = await createMerchant(prisma);
    await fund(merchant.id, [parseAmount(30000)]);
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);

    await prisma.$executeRaw`UPDATE balances SET available = available + 100 WHERE merchant_id = ${merchant.id}`;
    const report = await verifyLedger(prisma, { merchantIds: [merchant.id] });
    expect(report.breaches).toEqual([
      {
        check: 'balance.available',
        table: 'balances',
        id: String(merchant.id),
        merchantId: merchant.id,
        expected: 'available 3000000 (sum of the events)',
        found: 'available 3000100',
      },
      {
        check: 'books.merchant_account',
        table: 'accounts',
        id: `merchant:${merchant.id}:available`,
        merchantId: merchant.id,
        expected: "available 3000100 (the merchant's balance)",
        found: 'credit balance 3000000',
      },
    ]);
    await prisma.$executeRaw`UPDATE balances SET available = available - 100 WHERE merchant_id = ${merchant.id}`;
  });
});
