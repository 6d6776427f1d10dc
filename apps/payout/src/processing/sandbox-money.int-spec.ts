import { randomUUID } from 'node:crypto';
import { type BankRail, SandboxBankRail } from '@pay/bank-rail';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import { createPgPool, createPrismaClient, PayoutRepository, type PrismaClient, verifyLedger } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import {
  createDisbursement,
  createMerchant,
  fundMerchant,
  ledgerFor,
  RecordingLiveRail,
  sandboxPaidPayin,
} from '@pay/testing';
import type { Pool } from 'pg';
import { PayoutProcessor } from './payout.processor';

const SANDBOX_REFUSAL =
  'Sandbox money is never paid out over a live bank rail: this merchant has received sandbox pay-ins';

/**
 * Sandbox money (the sandbox payer's pay-ins) never leaves over a live rail: a merchant funded by
 * a sandbox pay, settled, transfers; over a live rail the disbursement fails with the reason and
 * its money comes back through the ledger, nothing sent; over the sandbox rail it is paid. The
 * ledger audit is clean after both.
 */
describe('sandbox money and the rail (real Postgres, the ledger, the payout processor)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let payouts: PayoutRepository;
  const options = { batchSize: 16, leaseMs: 30_000, timeoutRetryMs: 2_000 };

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    payouts = new PayoutRepository(pool);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  const processorOn = (rail: BankRail) => new PayoutProcessor(payouts, rail, createLogger('test', 'fatal'), options);
  const balanceOf = (merchantId: number) =>
    prisma.balance.findUniqueOrThrow({ where: { merchantId }, select: { available: true, pending: true } });
  /** How much sandbox money the ledger says the merchant has received (the nets), settled or not */
  const sandboxReceivedOf = async (merchantId: number) =>
    (await prisma.balance.findUniqueOrThrow({ where: { merchantId }, select: { sandboxReceived: true } }))
      .sandboxReceived;

  /** A merchant whose money is one pay-in paid by the sandbox payer, settled by the ledger. */
  async function sandboxFundedMerchant(): Promise<number> {
    const { merchant } = await createMerchant(prisma);
    const payinId = await sandboxPaidPayin(prisma, merchant.id, 500_000_00n, 3_650_00n);
    const settlementId = randomUUID();
    const settled = await ledgerFor(prisma).apply({
      type: 'settlement.credit',
      commandId: `settlement.credit:${settlementId}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      settlementId,
      payinIds: [payinId],
    });
    expect(settled.outcome).toBe('applied');
    expect(await balanceOf(merchant.id)).toEqual({ available: 496_350_00n, pending: 0n });
    return merchant.id;
  }

  /** Applies what the payout wrote for the ledger (the refund of a failed disbursement), as the ledger would from the bus. */
  async function ledgerAppliesCommandsOf(disbursementId: string): Promise<string[]> {
    const rows = await prisma.outbox.findMany({
      where: { topic: Topic.LedgerCommands, payload: { path: ['payoutId'], equals: disbursementId } },
      orderBy: { id: 'asc' },
    });
    const applied: string[] = [];
    for (const row of rows) {
      const command = parseLedgerCommand(row.payload);
      if (command.type === 'payout.debit') continue;
      expect((await ledgerFor(prisma).apply(command)).outcome).toBe('applied');
      applied.push(command.type);
    }
    return applied;
  }

  it('over a live rail: the disbursement fails with the reason, the money comes back, nothing is sent; the audit is clean', async () => {
    const merchantId = await sandboxFundedMerchant();
    const rail = new RecordingLiveRail();
    const { disbursement } = await createDisbursement(prisma, merchantId, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'debited',
    });
    expect(await balanceOf(merchantId)).toEqual({ available: 393_850_00n, pending: 0n });

    expect((await processorOn(rail).processDue([disbursement.id])).claimed).toBe(1);

    expect(rail.sent).toEqual([]);
    const row = await prisma.disbursement.findUniqueOrThrow({ where: { id: disbursement.id } });
    expect(row).toMatchObject({ status: 'failed', failureReason: SANDBOX_REFUSAL, railReference: null });
    const [callback] = await prisma.webhookDelivery.findMany({ where: { disbursementId: disbursement.id } });
    expect(JSON.parse(callback.body)).toMatchObject({
      type: 'disbursement.failed',
      data: { status: 'failed', failureReason: SANDBOX_REFUSAL, fee: { amount: 0 }, totalAmount: 100000 },
    });

    // Never sent: no payout.send, the refund comes back from payouts:payable.
    expect(await ledgerAppliesCommandsOf(disbursement.id)).toEqual(['payout.refund']);
    expect(await balanceOf(merchantId)).toEqual({ available: 496_350_00n, pending: 0n });

    // Asked again (a redelivered wake-up, another round): still nothing sent, nothing changes.
    await processorOn(rail).processDue([disbursement.id]);
    expect(rail.sent).toEqual([]);
    expect(await sandboxReceivedOf(merchantId)).toBe(496_350_00n);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
  });

  it('over a live rail, money that never was sandbox money is paid out as usual', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const rail = new RecordingLiveRail();
    const { disbursement } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'debited',
    });

    await processorOn(rail).processDue([disbursement.id]);

    expect(await sandboxReceivedOf(merchant.id)).toBe(0n);
    expect(rail.sent).toMatchObject([{ idempotencyKey: disbursement.id, amount: 100_000_00n }]);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: disbursement.id } })).toMatchObject({
      status: 'success',
      railReference: 'LIVE-1',
    });
    // Sent and confirmed in the books (payable -> in transit -> the rail's bank cash).
    expect(await ledgerAppliesCommandsOf(disbursement.id)).toEqual(['payout.send', 'payout.confirm']);
    expect(await verifyLedger(prisma, { merchantIds: [merchant.id] })).toMatchObject({ breaches: [] });
  });

  it('over the sandbox rail: the same transfer of sandbox money is paid out; the audit is clean', async () => {
    const merchantId = await sandboxFundedMerchant();
    const rail = new SandboxBankRail(pool, { latencyMs: 0, delayMs: 60_000 });
    const { disbursement } = await createDisbursement(prisma, merchantId, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'debited',
    });

    await processorOn(rail).processDue([disbursement.id]);

    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: disbursement.id } })).toMatchObject({
      status: 'success',
      failureReason: null,
    });
    expect(
      await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: disbursement.id } }),
    ).toMatchObject({ amount: 100_000_00n, submissions: 1 });
    // Sent over the sandbox rail and confirmed, in the books.
    expect(await ledgerAppliesCommandsOf(disbursement.id)).toEqual(['payout.send', 'payout.confirm']);
    expect(await balanceOf(merchantId)).toEqual({ available: 393_850_00n, pending: 0n });
    // The ledger marked the sandbox pay's money, and keeps what the merchant received of it (the net) however it is spent.
    expect(await sandboxReceivedOf(merchantId)).toBe(496_350_00n);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
  });
});
