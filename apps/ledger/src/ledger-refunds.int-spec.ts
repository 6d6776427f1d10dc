import { randomUUID } from 'node:crypto';
import { text as readText } from 'node:stream/consumers';
import { type LedgerCommand, type LedgerOutcome, parseLedgerCommand } from '@pay/contracts';
import type { LedgerService } from '@pay/ledger-core';
import {
  createPgPool,
  createPrismaClient,
  PayinRefundRepository,
  type PrismaClient,
  SettlementPlanner,
  streamReconCsv,
  trialBalance,
  verifyLedger,
} from '@pay/persistence';
import {
  createMerchant,
  createTestDatabase,
  debitedRefund,
  dropDatabase,
  insertSuccessfulPayin,
  ledgerFor,
  sandboxPaidPayin,
} from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';

/**
 * Pay-in refunds in the ledger (issue 44), in a database of their own (the trial balance is of
 * every account): the debit from pending or available, its postings, a settlement after a
 * refund from pending, the money back when the acquirer refuses, and the audit after each.
 */
describe('ledger: pay-in refunds (real Postgres)', () => {
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let ledger: LedgerService;
  let refunds: PayinRefundRepository;

  beforeAll(async () => {
    url = await createTestDatabase('pay_refunds');
    prisma = createPrismaClient(url, 4);
    pool = createPgPool(url, 4);
    ledger = ledgerFor(prisma);
    refunds = new PayinRefundRepository(pool);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  const now = () => new Date().toISOString();

  async function recordedPayin(merchantId: number, amount: bigint, fee: bigint): Promise<string> {
    const payinId = await insertSuccessfulPayin(prisma, merchantId, amount, fee);
    expect(
      await apply({
        type: 'payin.record',
        commandId: `r:${payinId}`,
        merchantId,
        issuedAt: now(),
        payinId,
        amount: String(amount),
        fee: String(fee),
      }),
    ).toMatchObject({ outcome: 'applied' });
    return payinId;
  }

  function apply(c: object): Promise<LedgerOutcome> {
    return ledger.apply(c as LedgerCommand);
  }

  async function settle(merchantId: number, payinIds: string[]): Promise<LedgerOutcome> {
    return apply({
      type: 'settlement.credit',
      commandId: `s:${payinIds[0]}`,
      merchantId,
      issuedAt: now(),
      settlementId: randomUUID(),
      payinIds,
    });
  }

  /** The refund through the gateway's path (row + command in the outbox), then its command applied. */
  const refund = (merchantId: number, payinId: string, amount: bigint) =>
    debitedRefund(prisma, merchantId, payinId, amount);

  /** The acquirer refused the refund: the sender's path (failed + the return command), then the command applied. */
  async function acquirerRefuses(id: string) {
    expect(await refunds.finish(id, { status: 'failed', reason: 'Invalid Amount' })).toMatchObject({
      refund: { status: 'failed' },
    });
    const [row] = await prisma.$queryRaw<{ payload: unknown }[]>`
      SELECT payload FROM outbox WHERE headers->>'message-id' = ${`payin.refund_return:${id}`}`;
    return ledger.apply(parseLedgerCommand(row.payload));
  }

  const balance = async (merchantId: number) => {
    const b = await prisma.balance.findUniqueOrThrow({ where: { merchantId } });
    return { available: b.available, pending: b.pending };
  };
  const postings = async (eventId: string) =>
    Object.fromEntries(
      (
        await prisma.$queryRaw<{ account: string; amount: bigint }[]>`
          SELECT account, amount FROM postings WHERE entry_id = ${BigInt(eventId)} ORDER BY account`
      ).map((p) => [p.account, p.amount]),
    );
  const audit = async () => {
    expect((await verifyLedger(prisma)).breaches).toEqual([]);
    const tb = await trialBalance(prisma);
    expect(tb.totalDebit).toBe(tb.totalCredit);
  };
  const eventId = (o: LedgerOutcome) => {
    if (o.outcome !== 'applied') throw new Error(`expected applied, got ${JSON.stringify(o)}`);
    return o.eventId;
  };

  it('a partial refund while pending takes it from pending; the settlement then moves only the rest: pending 0, available = net - refund', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await recordedPayin(m, 100_000_00n, 700_00n);
    const { id, outcome } = await refund(m, payin, 30_000_00n);
    expect(await postings(eventId(outcome))).toEqual({
      'acquirer:qris:receivable': -30_000_00n,
      [`merchant:${m}:pending`]: 30_000_00n,
    });
    expect(await balance(m)).toEqual({ available: 0n, pending: 69_300_00n });
    expect(await prisma.payinRefund.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'pending',
      source: 'pending',
      fromPending: 30_000_00n,
      fromAvailable: 0n,
    });
    await audit();

    const settled = await settle(m, [payin]);
    expect(await postings(eventId(settled))).toEqual({
      [`merchant:${m}:available`]: -69_300_00n,
      [`merchant:${m}:pending`]: 69_300_00n,
    });
    expect(await balance(m)).toEqual({ available: 69_300_00n, pending: 0n });
    expect(await prisma.settlement.findFirstOrThrow({ where: { merchantId: m } })).toMatchObject({
      amount: 69_300_00n,
      gross: 100_000_00n,
      fees: 700_00n,
      refunds: 30_000_00n,
    });
    await audit();
  });

  it('a refund of a settled pay-in debits available; refused with INSUFFICIENT_BALANCE when available does not cover it, and the row is refused', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await recordedPayin(m, 50_000_00n, 350_00n);
    expect(await settle(m, [payin])).toMatchObject({ outcome: 'applied' });
    const { outcome } = await refund(m, payin, 20_000_00n);
    expect(await postings(eventId(outcome))).toEqual({
      'acquirer:qris:receivable': -20_000_00n,
      [`merchant:${m}:available`]: 20_000_00n,
    });
    expect(await balance(m)).toEqual({ available: 29_650_00n, pending: 0n });

    // 30,000 left of the pay-in, but only 29,650 available: refused, nothing moves.
    const refused = await refund(m, payin, 30_000_00n);
    expect(refused.outcome).toMatchObject({ outcome: 'rejected', reason: 'INSUFFICIENT_BALANCE' });
    expect(await balance(m)).toEqual({ available: 29_650_00n, pending: 0n });
    expect(await prisma.payinRefund.findUniqueOrThrow({ where: { id: refused.id } })).toMatchObject({
      status: 'refused',
      refusalReason: 'INSUFFICIENT_BALANCE',
      ledgerEventId: null,
    });
    await audit();
  });

  it('a full refund of an unsettled pay-in takes its net from pending and the fee from available; nothing is left for its settlement', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const settledOne = await recordedPayin(m, 10_000_00n, 70_00n);
    expect(await settle(m, [settledOne])).toMatchObject({ outcome: 'applied' });
    const payin = await recordedPayin(m, 100_000_00n, 700_00n);
    const { id, outcome } = await refund(m, payin, 100_000_00n);
    expect(await postings(eventId(outcome))).toEqual({
      'acquirer:qris:receivable': -100_000_00n,
      [`merchant:${m}:available`]: 700_00n,
      [`merchant:${m}:pending`]: 99_300_00n,
    });
    expect(await balance(m)).toEqual({ available: 9_930_00n - 700_00n, pending: 0n });
    expect(await prisma.payinRefund.findUniqueOrThrow({ where: { id } })).toMatchObject({
      fromPending: 99_300_00n,
      fromAvailable: 700_00n,
    });
    await audit();
  });

  it('a pay-in whose whole net refunds took from pending is left out of the next settlement; the others settle', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const covering = await recordedPayin(m, 10_000_00n, 70_00n);
    expect(await settle(m, [covering])).toMatchObject({ outcome: 'applied' });
    const refunded = await recordedPayin(m, 30_000_00n, 210_00n);
    const other = await recordedPayin(m, 20_000_00n, 140_00n);
    await refund(m, refunded, 30_000_00n);
    const planned = await new SettlementPlanner(prisma).plan(m, new Date(Date.now() + 1000));
    expect(planned).toMatchObject({ requested: true, payinCount: 1 });
    const [row] = await prisma.$queryRaw<{ payload: unknown }[]>`
      SELECT payload FROM outbox WHERE headers->>'message-id' = ${`settlement.credit:${planned?.settlementId}`}`;
    expect(row.payload).toMatchObject({ payinIds: [other] });
    expect(await ledger.apply(parseLedgerCommand(row.payload))).toMatchObject({ outcome: 'applied' });
    expect(await balance(m)).toEqual({ available: 9_930_00n - 210_00n + 19_860_00n, pending: 0n });
    expect((await prisma.payin.findUniqueOrThrow({ where: { id: refunded } })).settlementId).toBeNull();
    await audit();
  });

  it('the acquirer refusing gives the money back where it was taken, exactly once; after the settlement, to available', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await recordedPayin(m, 100_000_00n, 700_00n);
    const first = await refund(m, payin, 10_000_00n);
    const second = await refund(m, payin, 5_000_00n);
    expect(await balance(m)).toEqual({ available: 0n, pending: 84_300_00n });

    // Refused while the pay-in is unsettled: back to pending, and the settlement moves it again.
    const back = await acquirerRefuses(first.id);
    expect(await postings(eventId(back))).toEqual({
      'acquirer:qris:receivable': 10_000_00n,
      [`merchant:${m}:pending`]: -10_000_00n,
    });
    expect(await balance(m)).toEqual({ available: 0n, pending: 94_300_00n });
    // The same return again (a redelivery) changes nothing.
    const [row] = await prisma.$queryRaw<{ payload: unknown }[]>`
      SELECT payload FROM outbox WHERE headers->>'message-id' = ${`payin.refund_return:${first.id}`}`;
    expect(await ledger.apply(parseLedgerCommand(row.payload))).toEqual(back);
    expect(await balance(m)).toEqual({ available: 0n, pending: 94_300_00n });
    await audit();

    expect(await settle(m, [payin])).toMatchObject({ outcome: 'applied' });
    expect(await balance(m)).toEqual({ available: 94_300_00n, pending: 0n });
    await audit();

    // Refused after the settlement (it moved only what was left): back to available.
    const late = await acquirerRefuses(second.id);
    expect(await postings(eventId(late))).toEqual({
      'acquirer:qris:receivable': 5_000_00n,
      [`merchant:${m}:available`]: -5_000_00n,
    });
    expect(await balance(m)).toEqual({ available: 99_300_00n, pending: 0n });
    await audit();
  });

  it('a sandbox pay-in refund nets against the sandbox payer, not the acquirer', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await sandboxPaidPayin(prisma, m, 20_000_00n, 140_00n);
    const { outcome } = await refund(m, payin, 1_000_00n);
    expect(await postings(eventId(outcome))).toEqual({
      'acquirer:sandbox:receivable': -1_000_00n,
      [`merchant:${m}:pending`]: 1_000_00n,
    });
    await audit();
  });

  it("the movements day file lists a refund's debit and its return, naming the refunded pay-in", async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await recordedPayin(m, 60_000_00n, 420_00n);
    const row = await prisma.payin.findUniqueOrThrow({ where: { id: payin } });
    const { id } = await refund(m, payin, 10_000_50n);
    await acquirerRefuses(id);
    const { csv, done } = await streamReconCsv(
      pool,
      m,
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 3_600_000),
      'movements',
    );
    const rows = parse(await readText(csv), { columns: true }) as Record<string, string>[];
    await done();
    expect(rows.map((r) => [r.type, r.merchantTrxId, r.platformTrxId, r.pendingChange, r.pendingAfter])).toEqual([
      ['payin.recorded', row.merchantTrxId, row.platformTrxId, '59580', '59580'],
      ['payin.refunded', row.merchantTrxId, row.platformTrxId, '-10000.5', '49579.5'],
      ['payin.refund_returned', row.merchantTrxId, row.platformTrxId, '10000.5', '59580'],
    ]);
  });

  it('the audit names a refund debited without its event and an event whose refund says otherwise', async () => {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin = await recordedPayin(m, 40_000_00n, 280_00n);
    const { id } = await refund(m, payin, 4_000_00n);
    await prisma.$executeRaw`UPDATE payin_refunds SET from_pending = 300000, from_available = 100000 WHERE id = ${id}::uuid`;
    const report = await verifyLedger(prisma, { merchantIds: [m] });
    expect(report.breaches).toMatchObject([{ check: 'refund.event_amount', merchantId: m }]);
    await prisma.$executeRaw`UPDATE payin_refunds SET from_pending = 400000, from_available = 0 WHERE id = ${id}::uuid`;
    expect((await verifyLedger(prisma, { merchantIds: [m] })).breaches).toEqual([]);
  });
});
