import { randomUUID } from 'node:crypto';
import { type LedgerCommand, ledgerCommandId, parseLedgerCommand, Topic } from '@pay/contracts';
import {
  createPgPool,
  createPrismaClient,
  DISBURSEMENT_DECIDED_CHANNEL,
  type PrismaClient,
  verifyLedger,
} from '@pay/persistence';
import { LedgerService } from '@pay/ledger-core';
import { Client, type Pool } from 'pg';
import { createDisbursement, createMerchant, directPayoutId, fundMerchant, insertSuccessfulPayin } from '@pay/testing';

const issuedAt = new Date().toISOString();
const command = (fields: object): LedgerCommand => parseLedgerCommand(JSON.stringify({ issuedAt, ...fields }));
const debit = (merchantId: number, amount: bigint, fee = 0n, payoutId = directPayoutId()): LedgerCommand =>
  command({
    type: 'payout.debit',
    commandId: `debit:${payoutId}`,
    merchantId,
    payoutId,
    amount: String(amount),
    fee: String(fee),
  });

/** Group commit: a batch of commands decided in order in one transaction (ledger-batch.ts). */
describe('LedgerService.applyBatch (real Postgres)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let ledger: LedgerService;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 8);
    ledger = new LedgerService(pool);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  const balanceOf = async (merchantId: number) => {
    const b = await prisma.balance.findUniqueOrThrow({ where: { merchantId } });
    return { available: b.available, pending: b.pending, lastSeq: b.lastSeq };
  };
  const clean = async (merchantIds: number[]) =>
    expect((await verifyLedger(prisma, { merchantIds })).breaches).toEqual([]);

  it('decides each command against the balance the ones before it left: refusals are recorded and the rest of the batch goes on', async () => {
    const [{ merchant: a }, { merchant: b }] = [await createMerchant(prisma), await createMerchant(prisma)];
    await fundMerchant(prisma, a.id, [200_000n]); // 20 debits of 10,000
    await fundMerchant(prisma, b.id, [1_000_000n]);
    const batch = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 3 ? debit(b.id, 10_000n) : debit(a.id, 7_500n, 2_500n),
    );

    const outcomes = await ledger.applyBatch(batch);

    expect(outcomes.map((o) => o.commandId)).toEqual(batch.map((c) => c.commandId));
    const ofA = outcomes.filter((_, i) => batch[i].merchantId === a.id);
    expect(ofA.slice(0, 20).every((o) => o.outcome === 'applied')).toBe(true);
    expect(ofA.slice(20)).toEqual(
      ofA.slice(20).map((o) => ({
        outcome: 'rejected',
        commandId: o.commandId,
        reason: 'INSUFFICIENT_BALANCE',
        detail: { available: '0', required: '10000' },
      })),
    );
    expect(await balanceOf(a.id)).toEqual({ available: 0n, pending: 0n, lastSeq: 22n }); // record, settle, 20 debits
    expect(await balanceOf(b.id)).toEqual({ available: 900_000n, pending: 0n, lastSeq: 12n });
    // Each applied outcome carries the balance right after it, and seq follows the batch order.
    expect(ofA.slice(0, 20).map((o) => (o.outcome === 'applied' ? [o.seq, o.balance.available] : null))).toEqual(
      Array.from({ length: 20 }, (_, i) => [String(i + 3), String(200_000 - (i + 1) * 10_000)]),
    );
    expect(await prisma.ledgerCommand.count({ where: { commandId: { in: batch.map((c) => c.commandId) } } })).toBe(40);
    // One outbox row per decision, in decision order (so per merchant in order).
    const rows = await prisma.outbox.findMany({
      where: { key: { in: [String(a.id), String(b.id)] }, topic: Topic.LedgerEvents },
      orderBy: { id: 'asc' },
    });
    const decided = rows
      .map((r) => (r.payload as { commandId: string }).commandId)
      .filter((id) => batch.some((c) => c.commandId === id));
    expect(decided).toEqual(batch.map((c) => c.commandId));
    await clean([a.id, b.id]);
  });

  it('lets a command read what the commands before it in the same batch wrote: record, settle, debit, refund', async () => {
    const { merchant } = await createMerchant(prisma);
    const payins = [
      await insertSuccessfulPayin(prisma, merchant.id, 50_000n, 500n),
      await insertSuccessfulPayin(prisma, merchant.id, 30_000n, 300n),
    ];
    const settlementId = randomUUID();
    const payoutId = directPayoutId();
    const batch = [
      ...payins.map((payinId, i) =>
        command({
          type: 'payin.record',
          commandId: `payin:${payinId}`,
          merchantId: merchant.id,
          payinId,
          amount: i === 0 ? '50000' : '30000',
          fee: i === 0 ? '500' : '300',
        }),
      ),
      command({
        type: 'settlement.credit',
        commandId: `settle:${settlementId}`,
        merchantId: merchant.id,
        settlementId,
        payinIds: payins,
      }),
      debit(merchant.id, 70_000n, 2_500n, payoutId),
      command({
        type: 'payout.refund',
        commandId: `refund:${payoutId}`,
        merchantId: merchant.id,
        payoutId,
        reason: 'bank rejected',
      }),
    ];

    const outcomes = await ledger.applyBatch(batch);

    expect(outcomes.map((o) => o.outcome)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
    expect(await balanceOf(merchant.id)).toEqual({ available: 79_200n, pending: 0n, lastSeq: 5n });
    expect(
      await prisma.payin.count({ where: { id: { in: payins }, settlementId, ledgerEventId: { not: null } } }),
    ).toBe(2);
    await clean([merchant.id]);
  });

  it('decides a command once however often the batch and earlier batches carry it; another command for the same reference is refused', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [100_000n]);
    const payoutId = directPayoutId();
    const first = debit(merchant.id, 10_000n, 0n, payoutId);
    const [before] = await ledger.applyBatch([first]);
    const again = debit(merchant.id, 10_000n);
    const sameReference = command({
      type: 'payout.debit',
      commandId: 'debit:another-id',
      merchantId: merchant.id,
      payoutId,
      amount: '10000',
      fee: '0',
    });

    const outcomes = await ledger.applyBatch([first, again, again, sameReference, first]);

    expect(outcomes[0]).toEqual(before);
    expect(outcomes[4]).toEqual(before);
    expect(outcomes[2]).toEqual(outcomes[1]);
    expect(outcomes[3]).toMatchObject({
      outcome: 'rejected',
      reason: 'DUPLICATE_REFERENCE',
      detail: { reference: payoutId, commandId: first.commandId },
    });
    expect(await balanceOf(merchant.id)).toMatchObject({ available: 80_000n });
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id, type: 'payout.debited' } })).toBe(2);
    await clean([merchant.id]);
  });

  it('moves the disbursements it decides out of funding and announces each on commit', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [25_000n]);
    const funding = await Promise.all(
      [0, 1, 2].map(() =>
        createDisbursement(prisma, merchant.id, { amount: 10_000n, fee: 2_500n, outcome: 'funding' }),
      ),
    );
    const listener = new Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${DISBURSEMENT_DECIDED_CHANNEL}`);
    try {
      const batch = funding.map(({ disbursement: d }) =>
        command({
          type: 'payout.debit',
          commandId: ledgerCommandId.payoutDebit(d.id),
          merchantId: merchant.id,
          payoutId: d.id,
          amount: '10000',
          fee: '2500',
        }),
      );
      const outcomes = await ledger.applyBatch(batch);
      expect(outcomes.map((o) => o.outcome)).toEqual(['applied', 'applied', 'rejected']);
      const rows = await prisma.disbursement.findMany({ where: { id: { in: funding.map((f) => f.disbursement.id) } } });
      const status = new Map(rows.map((r) => [r.id, [r.status, r.refusalReason, r.debitedAt !== null]]));
      expect(funding.map((f) => status.get(f.disbursement.id))).toEqual([
        ['pending', null, true],
        ['pending', null, true],
        ['refused', 'INSUFFICIENT_BALANCE', false],
      ]);
      await waitUntil(() => heard.length === 3);
      expect(heard.sort()).toEqual(
        funding.map((f, i) => `${f.disbursement.id}:${i < 2 ? 'pending' : 'refused'}`).sort(),
      );
    } finally {
      await listener.end();
    }
    await clean([merchant.id]);
  });

  it('is all or nothing: a command that fails the batch leaves no trace of the others', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [100_000n]);
    const fine = debit(merchant.id, 10_000n);
    // Not through the parser: a pay-in id Postgres cannot read fails the batch's statement.
    const broken = {
      type: 'payin.record',
      commandId: 'payin:broken',
      merchantId: merchant.id,
      issuedAt,
      payinId: 'not-a-uuid',
      amount: '1',
      fee: '0',
    } as LedgerCommand;

    await expect(ledger.applyBatch([fine, broken])).rejects.toThrow();

    expect(await balanceOf(merchant.id)).toMatchObject({ available: 100_000n, lastSeq: 2n });
    expect(await prisma.ledgerCommand.count({ where: { commandId: { in: [fine.commandId, broken.commandId] } } })).toBe(
      0,
    );
    expect((await ledger.applyBatch([fine]))[0].outcome).toBe('applied');
  });

  it('batches that arrive together (the partitions of one bus read) go in one transaction; a failing one is applied alone and fails alone', async () => {
    const merchants = await Promise.all([0, 1, 2, 3].map(async () => (await createMerchant(prisma)).merchant.id));
    for (const id of merchants) await fundMerchant(prisma, id, [100_000n]);
    const batches = merchants.map((id) => [debit(id, 10_000n), debit(id, 20_000n)]);
    const outcomes = await Promise.all(batches.map((b) => ledger.applyBatch(b)));
    expect(outcomes.map((o) => o.map((x) => x.outcome))).toEqual(merchants.map(() => ['applied', 'applied']));
    expect(outcomes.map((o) => o.map((x) => x.commandId))).toEqual(batches.map((b) => b.map((c) => c.commandId)));
    // One transaction: every decision carries the batch's clock.
    const decided = await prisma.ledgerCommand.findMany({
      where: { commandId: { in: batches.flat().map((c) => c.commandId) } },
      select: { decidedAt: true },
    });
    expect(new Set(decided.map((d) => d.decidedAt.getTime())).size).toBe(1);

    // Arriving with a batch that cannot be applied: the others are applied, the failing one fails, alone.
    const broken = {
      type: 'payin.record',
      commandId: 'payin:broken-2',
      merchantId: merchants[3],
      issuedAt,
      payinId: 'not-a-uuid',
      amount: '1',
      fee: '0',
    } as LedgerCommand;
    const next = merchants.slice(0, 3).map((id) => [debit(id, 30_000n)]);
    const results = await Promise.allSettled(
      [...next, [debit(merchants[3], 5_000n), broken]].map((b) => ledger.applyBatch(b)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    for (const id of merchants.slice(0, 3))
      expect(await balanceOf(id)).toMatchObject({ available: 40_000n, lastSeq: 5n });
    expect(await balanceOf(merchants[3])).toMatchObject({ available: 70_000n, lastSeq: 4n });
    await clean(merchants);
  });

  it('never deadlocks or overdraws when batches over the same merchants run at once, in any order', async () => {
    const merchants = await Promise.all([0, 1, 2].map(async () => (await createMerchant(prisma)).merchant.id));
    for (const id of merchants) await fundMerchant(prisma, id, [100_000n]); // 10 debits of 10,000 each
    const batches = Array.from({ length: 6 }, (_, i) => {
      const order = i % 2 === 0 ? merchants : [...merchants].reverse();
      return Array.from({ length: 12 }, (_, j) => debit(order[j % 3], 10_000n));
    });

    const outcomes = (await Promise.all(batches.map((b) => ledger.applyBatch(b)))).flat();

    expect(outcomes.filter((o) => o.outcome === 'applied')).toHaveLength(30);
    for (const id of merchants) expect(await balanceOf(id)).toEqual({ available: 0n, pending: 0n, lastSeq: 12n });
    await clean(merchants);
  });
});

async function waitUntil(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
