import { randomUUID } from 'node:crypto';
import { SandboxBankRail } from '@pay/bank-rail';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import { publicStatus } from '@pay/domain';
import {
  BatchRepository,
  createPgPool,
  createPrismaClient,
  type Disbursement,
  DisbursementRepository,
  PayoutApprovalRepository,
  PayoutRepository,
  type PrismaClient,
  verifyLedger,
} from '@pay/persistence';
import { createLogger } from '@pay/platform';
import {
  createMerchant,
  createTestDatabase,
  debitedTransfer,
  dropDatabase,
  fundMerchant,
  ledgerFor,
} from '@pay/testing';
import type { Pool } from 'pg';
import { BatchRowsProcessor } from './batch-rows.processor';
import { PayoutProcessor } from './payout.processor';

/**
 * Approval before money leaves (issue 44 part 2; docs/payout-approvals.md), through the real
 * statements: the gateway's transfer record (above the merchant's threshold: held), the ledger's
 * debit, the payout service's claim and outcomes, the approvers' decisions. The ledger applies
 * what the payout service wrote, as it would from the bus.
 */
/** A merchant's activity log (the dashboard's), oldest first: who did what to what. */
async function activityOf(pool: Pool, merchantId: number) {
  const { rows } = await pool.query<{
    actor: string;
    action: string;
    target: string;
    details: Record<string, unknown>;
  }>(`SELECT actor, action, target, details FROM operator_audit_log WHERE merchant_id = $1 ORDER BY id`, [merchantId]);
  return rows;
}

describe('payout approvals (real Postgres, the ledger, the payout processor)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let disbursements: DisbursementRepository;
  let approvals: PayoutApprovalRepository;
  let processor: PayoutProcessor;

  const AMOUNT = 1_000_000_00n; // 1,000,000.00
  const FEE = 2_500_00n;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 6);
    disbursements = new DisbursementRepository(pool);
    approvals = new PayoutApprovalRepository(pool);
    processor = new PayoutProcessor(
      new PayoutRepository(pool),
      new SandboxBankRail(pool, { latencyMs: 0, delayMs: 0 }),
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

  /** A funded merchant whose payouts above `threshold` wait for approval. */
  async function merchantWithApprovals(threshold: bigint | null = 500_000_00n) {
    const { merchant, tokenId } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [5_000_000_00n]);
    await approvals.setSettings(merchant.id, { threshold, ttlSeconds: 3600, batches: false });
    return { merchantId: merchant.id, tokenId, funded: await available(merchant.id) };
  }

  /** A transfer as the gateway records it (by the API token `tokenId`), then debited by the ledger. */
  const transfer = (merchantId: number, tokenId: string, amount = AMOUNT) =>
    debitedTransfer(prisma, merchantId, tokenId, { amount, fee: FEE });

  /** The payout's commands after its debit, applied as the ledger would from the bus; their types and outcomes. */
  async function ledgerApplies(payoutId: string): Promise<string[]> {
    const rows = await prisma.outbox.findMany({
      where: { topic: Topic.LedgerCommands, payload: { path: ['payoutId'], equals: payoutId } },
      orderBy: { id: 'asc' },
    });
    const outcomes: string[] = [];
    for (const command of rows.map((r) => parseLedgerCommand(r.payload)).filter((c) => c.type !== 'payout.debit'))
      outcomes.push(`${command.type} ${(await ledgerFor(prisma).apply(command)).outcome}`);
    return outcomes;
  }

  const row = async (id: string) => (await disbursements.get(id)) as Disbursement;
  const railTransfers = (id: string) => prisma.sandboxRailTransfer.count({ where: { idempotencyKey: id } });
  const callbacks = (id: string) => prisma.webhookDelivery.findMany({ where: { disbursementId: id } });
  const approver = 'user:900001';

  it('holds a payout above the threshold: debited (available down by amount + fee), awaiting_approval, never claimed or sent; one at or below it goes as before', async () => {
    const { merchantId, tokenId, funded } = await merchantWithApprovals(500_000_00n);
    const held = await transfer(merchantId, tokenId);
    expect(held).toMatchObject({ status: 'pending', approval: 'awaiting', createdBy: `token:${tokenId}` });
    expect((held.approvalExpiresAt as Date).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    // Due only when its approval expires.
    expect((held.nextCheckAt as Date).getTime()).toBe((held.approvalExpiresAt as Date).getTime());
    expect(publicStatus('pending', held.approval)).toBe('awaiting_approval');
    expect(await available(merchantId)).toBe(funded - AMOUNT - FEE);
    expect((await processor.processDue([held.id])).claimed).toBe(0);
    expect(await railTransfers(held.id)).toBe(0);
    expect(await approvals.awaiting(merchantId)).toEqual([expect.objectContaining({ id: held.id })]);
    // The hold is in the merchant's activity log, by the token that made it (no user took it).
    expect(await activityOf(pool, merchantId)).toEqual([
      {
        actor: `token:${tokenId}`,
        action: 'payout.held',
        target: `payout:${held.platformTrxId}`,
        details: expect.objectContaining({ merchantTrxId: held.merchantTrxId, amount: Number(AMOUNT) }),
      },
    ]);

    const small = await transfer(merchantId, tokenId, 500_000_00n);
    expect(small.approval).toBeNull();
    expect(publicStatus('pending', small.approval)).toBe('pending');
    expect((await processor.processDue([small.id])).claimed).toBe(1);
    expect(await railTransfers(small.id)).toBe(1);
  });

  it('a merchant without a threshold: nothing is held', async () => {
    const { merchantId, tokenId } = await merchantWithApprovals(null);
    const d = await transfer(merchantId, tokenId, 4_000_000_00n);
    expect(d.approval).toBeNull();
    expect(d.createdBy).toBe(`token:${tokenId}`);
  });

  it('approval by another user releases it: sent over the rail and paid; the books send and confirm it; the audit is clean', async () => {
    const { merchantId, tokenId, funded } = await merchantWithApprovals();
    const d = await transfer(merchantId, tokenId);
    const verdict = await approvals.decide(merchantId, d.platformTrxId, 'approved', approver, 'payroll ok');
    expect(verdict.kind).toBe('decided');
    expect(await row(d.id)).toMatchObject({
      approval: 'approved',
      approvalDecidedBy: approver,
      approvalNote: 'payroll ok',
    });
    expect((await processor.processDue([d.id])).claimed).toBe(1);
    expect(await railTransfers(d.id)).toBe(1);
    // The sandbox rail settles at once: the next round finds it paid.
    await processor.processDue([d.id]);
    expect((await row(d.id)).status).toBe('success');
    expect(await ledgerApplies(d.id)).toEqual(['payout.send applied', 'payout.confirm applied']);
    expect(await available(merchantId)).toBe(funded - AMOUNT - FEE);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
    // Decided once: a second decision is refused.
    expect((await approvals.decide(merchantId, d.platformTrxId, 'rejected', 'user:900002', null)).kind).toBe(
      'notAwaiting',
    );
  });

  it('rejection fails it unsent with APPROVAL_REJECTED: the ledger refunds it exactly once, the balance is whole again, one callback, the audit is clean', async () => {
    const { merchantId, tokenId, funded } = await merchantWithApprovals();
    const d = await transfer(merchantId, tokenId);
    expect((await approvals.decide(merchantId, d.platformTrxId, 'rejected', approver, null)).kind).toBe('decided');
    expect((await processor.processDue([d.id])).claimed).toBe(1);
    // Rounds after: nothing more to do.
    expect((await processor.processDue([d.id])).claimed).toBe(0);
    const failed = await row(d.id);
    expect(failed).toMatchObject({
      status: 'failed',
      approval: 'rejected',
      failureCode: 'APPROVAL_REJECTED',
      submittedAt: null,
    });
    expect(await railTransfers(d.id)).toBe(0);
    expect(await ledgerApplies(d.id)).toEqual(['payout.refund applied']);
    // Delivered again: the ledger gives it back once.
    await ledgerApplies(d.id);
    expect(await available(merchantId)).toBe(funded);
    expect(await prisma.ledgerEvent.count({ where: { merchantId, type: 'payout.refunded', reference: d.id } })).toBe(1);
    const sent = await callbacks(d.id);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toMatchObject({
      type: 'disbursement.failed',
      data: { status: 'failed', failureCode: 'APPROVAL_REJECTED' },
    });
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
    expect((await approvals.decide(merchantId, d.platformTrxId, 'approved', 'user:900002', null)).kind).toBe(
      'notAwaiting',
    );
  });

  it('expiry: a payout never decided fails unsent with APPROVAL_EXPIRED when its time is up (found by the claim, whatever process runs it), refunded once; too late to approve', async () => {
    const { merchantId, tokenId, funded } = await merchantWithApprovals();
    const d = await transfer(merchantId, tokenId);
    // Its time runs out (the clock moved past its expiry, as after a restart).
    await pool.query(
      `UPDATE disbursements SET approval_expires_at = now() - interval '1 second', next_check_at = now() - interval '1 second' WHERE id = $1`,
      [d.id],
    );
    expect((await approvals.decide(merchantId, d.platformTrxId, 'approved', approver, null)).kind).toBe('notAwaiting');
    expect(await approvals.awaiting(merchantId)).toEqual([]);
    expect((await processor.processDue([d.id])).claimed).toBe(1);
    expect((await processor.processDue([d.id])).claimed).toBe(0);
    expect(await row(d.id)).toMatchObject({
      status: 'failed',
      approval: 'expired',
      failureCode: 'APPROVAL_EXPIRED',
    });
    expect(await railTransfers(d.id)).toBe(0);
    expect(await ledgerApplies(d.id)).toEqual(['payout.refund applied']);
    expect(await available(merchantId)).toBe(funded);
    expect(await callbacks(d.id)).toHaveLength(1);
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
    // Held, then expired: both in the activity log, the expiry once, by the payout service.
    expect((await activityOf(pool, merchantId)).map((a) => [a.actor, a.action, a.details.approval ?? null])).toEqual([
      [`token:${tokenId}`, 'payout.held', null],
      ['payout-service', 'payout.approval', 'expired'],
    ]);
  });

  it('the API token that created it can never decide it; another merchant cannot see it', async () => {
    const { merchantId, tokenId } = await merchantWithApprovals();
    const d = await transfer(merchantId, tokenId);
    expect((await approvals.decide(merchantId, d.platformTrxId, 'approved', `token:${tokenId}`, null)).kind).toBe(
      'ownPayout',
    );
    const other = await merchantWithApprovals();
    expect((await approvals.decide(other.merchantId, d.platformTrxId, 'approved', approver, null)).kind).toBe(
      'notFound',
    );
    expect((await row(d.id)).approval).toBe('awaiting');
  });

  it('an approval and a rejection at once: exactly one decides, and the payout follows that one', async () => {
    for (let round = 0; round < 5; round++) {
      const { merchantId, tokenId, funded } = await merchantWithApprovals();
      const d = await transfer(merchantId, tokenId);
      const [a, r] = await Promise.all([
        approvals.decide(merchantId, d.platformTrxId, 'approved', 'user:900001', null),
        approvals.decide(merchantId, d.platformTrxId, 'rejected', 'user:900002', null),
      ]);
      expect([a.kind, r.kind].sort()).toEqual(['decided', 'notAwaiting']);
      await processor.processDue([d.id]);
      await processor.processDue([d.id]);
      const final = await row(d.id);
      if (a.kind === 'decided') {
        expect(final).toMatchObject({ approval: 'approved', status: 'success' });
        expect(await available(merchantId)).toBe(funded - AMOUNT - FEE);
      } else {
        expect(final).toMatchObject({ approval: 'rejected', status: 'failed' });
        await ledgerApplies(d.id);
        expect(await available(merchantId)).toBe(funded);
      }
    }
  });
});

/**
 * Batches held for approval, on a database of their own (the batch loop claims every due row): each
 * row checked and debited as usual but held; one decision on the batch decides every row, also the
 * rows not yet recorded when it is taken.
 */
describe('batch approvals (real Postgres, the batch loop, the ledger, the payout processor)', () => {
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let batches: BatchRepository;
  let approvals: PayoutApprovalRepository;
  let rowsLoop: BatchRowsProcessor;
  let payouts: PayoutProcessor;

  beforeAll(async () => {
    url = await createTestDatabase('pay_batch_approvals');
    prisma = createPrismaClient(url, 2);
    pool = createPgPool(url, 4);
    batches = new BatchRepository(pool);
    approvals = new PayoutApprovalRepository(pool);
    const rail = new SandboxBankRail(pool, { latencyMs: 0, delayMs: 0 });
    const logger = createLogger('test', 'fatal');
    const options = { batchSize: 50, leaseMs: 30_000, timeoutRetryMs: 1, safetyIntervalMs: 60_000 };
    rowsLoop = new BatchRowsProcessor(batches, rail, logger, options);
    payouts = new PayoutProcessor(new PayoutRepository(pool), rail, logger, options);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  const AMOUNT = 100_000_00n;
  const FEE = 2_500_00n;
  /** The ledger decides every command the outbox holds (as its consumer would), once. */
  async function ledgerDecides() {
    const rows = await prisma.outbox.findMany({ where: { topic: Topic.LedgerCommands }, orderBy: { id: 'asc' } });
    for (const r of rows) await ledgerFor(prisma).apply(parseLedgerCommand(r.payload));
    await prisma.outbox.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  }
  const available = async (merchantId: number) =>
    (await prisma.balance.findUniqueOrThrow({ where: { merchantId } })).available;
  const payoutsOf = (batchUuid: string) =>
    prisma.disbursement.findMany({
      where: { batchRow: { some: { batchId: batchUuid } } },
      orderBy: { merchantTrxId: 'asc' },
    });

  async function heldBatch(rowCount = 3) {
    const { merchant, tokenId } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    await approvals.setSettings(merchant.id, { threshold: null, ttlSeconds: 3600, batches: true });
    const funded = await available(merchant.id);
    const verdict = await batches.submit(
      {
        id: randomUUID(),
        merchantId: merchant.id,
        batchId: `B-${randomUUID()}`,
        requestHash: 'h',
        notifyUrl: null,
        logId: null,
        createdBy: `token:${tokenId}`,
      },
      Array.from({ length: rowCount }, (_v, i) => ({
        rowNo: i + 1,
        merchantTrxId: `R-${randomUUID()}`,
        bankCode: 'BCA',
        accountNo: `11122${String(i + 1).padStart(5, '0')}`,
        accountName: null,
        amount: AMOUNT,
        refusal: null,
      })),
      { code: 'DUPLICATE_MERCHANT_TRX_ID', message: 'taken' },
    );
    if (verdict.kind === 'conflict') throw new Error('conflict');
    expect(verdict.batch).toMatchObject({ approval: 'awaiting', createdBy: `token:${tokenId}` });
    return { merchantId: merchant.id, tokenId, funded, batch: verdict.batch };
  }

  it('holds every row (checked, debited, not sent); the submitting token cannot approve; another user approves: all sent and paid, the batch completed', async () => {
    const { merchantId, tokenId, funded, batch } = await heldBatch();
    await rowsLoop.processDue();
    await ledgerDecides();
    const held = await payoutsOf(batch.id);
    expect(held.map((d) => [d.status, d.approval])).toEqual([
      ['pending', 'awaiting'],
      ['pending', 'awaiting'],
      ['pending', 'awaiting'],
    ]);
    expect(await available(merchantId)).toBe(funded - 3n * (AMOUNT + FEE));
    expect((await payouts.processDue()).claimed).toBe(0);
    expect(await approvals.awaitingBatches(merchantId)).toEqual([
      expect.objectContaining({ batchId: batch.batchId, acceptedAmount: 3n * AMOUNT }),
    ]);

    // A batch's rows are decided with the batch, never one by one (nor listed alone).
    expect((await approvals.decide(merchantId, held[0].platformTrxId, 'approved', 'user:1', null)).kind).toBe(
      'notAwaiting',
    );
    expect(await approvals.awaiting(merchantId)).toEqual([]);
    expect((await approvals.decideBatch(merchantId, batch.batchId, 'approved', `token:${tokenId}`, null)).kind).toBe(
      'ownPayout',
    );
    const decided = await approvals.decideBatch(merchantId, batch.batchId, 'approved', 'user:1', null);
    expect(decided).toMatchObject({ kind: 'decided', payouts: 3 });
    await payouts.processDue();
    await payouts.processDue();
    expect((await payoutsOf(batch.id)).map((d) => d.status)).toEqual(['success', 'success', 'success']);
    await ledgerDecides();
    await rowsLoop.processDue();
    expect((await prisma.disbursementBatch.findUniqueOrThrow({ where: { id: batch.id } })).completedAt).not.toBeNull();
    expect(await available(merchantId)).toBe(funded - 3n * (AMOUNT + FEE));
    expect((await approvals.decideBatch(merchantId, batch.batchId, 'rejected', 'user:2', null)).kind).toBe(
      'notAwaiting',
    );
  });

  it('a rejection fails every row unsent and refunded, also a row recorded after it; the balance whole again, the batch completed', async () => {
    const { merchantId, funded, batch } = await heldBatch(2);
    // Row 1 is recorded and debited before the decision; row 2 is still being checked.
    await prisma.$executeRaw`UPDATE disbursement_batch_rows SET next_check_at = now() + interval '1 hour' WHERE batch_id = ${batch.id}::uuid AND row_no = 2`;
    await rowsLoop.processDue();
    await ledgerDecides();
    expect((await approvals.decideBatch(merchantId, batch.batchId, 'rejected', 'user:1', 'wrong file')).kind).toBe(
      'decided',
    );
    await prisma.$executeRaw`UPDATE disbursement_batch_rows SET next_check_at = now() WHERE batch_id = ${batch.id}::uuid AND row_no = 2`;
    await rowsLoop.processDue();
    await ledgerDecides();
    await payouts.processDue();
    await ledgerDecides();
    const rows = await payoutsOf(batch.id);
    expect(rows.map((d) => [d.status, d.approval, d.failureCode, d.submittedAt])).toEqual([
      ['failed', 'rejected', 'APPROVAL_REJECTED', null],
      ['failed', 'rejected', 'APPROVAL_REJECTED', null],
    ]);
    expect(await available(merchantId)).toBe(funded);
    await rowsLoop.processDue();
    expect((await prisma.disbursementBatch.findUniqueOrThrow({ where: { id: batch.id } })).completedAt).not.toBeNull();
    expect(await verifyLedger(prisma, { merchantIds: [merchantId] })).toMatchObject({ breaches: [], inFlight: [] });
  });

  it('an approval never given: every row expires, refunded', async () => {
    const { merchantId, funded, batch } = await heldBatch(2);
    await rowsLoop.processDue();
    await ledgerDecides();
    await prisma.$executeRaw`UPDATE disbursement_batches SET approval_expires_at = now() WHERE id = ${batch.id}::uuid`;
    await prisma.$executeRaw`UPDATE disbursements SET approval_expires_at = now(), next_check_at = now()
      WHERE id IN (SELECT disbursement_id FROM disbursement_batch_rows WHERE batch_id = ${batch.id}::uuid)`;
    expect((await approvals.decideBatch(merchantId, batch.batchId, 'approved', 'user:1', null)).kind).toBe(
      'notAwaiting',
    );
    await payouts.processDue();
    await ledgerDecides();
    expect((await payoutsOf(batch.id)).map((d) => d.failureCode)).toEqual(['APPROVAL_EXPIRED', 'APPROVAL_EXPIRED']);
    expect(await available(merchantId)).toBe(funded);
    // The batch held and expired, once each (its rows are not logged one by one).
    expect((await activityOf(pool, merchantId)).map((a) => [a.action, a.target, a.details.approval ?? null])).toEqual([
      ['batch.held', `batch:${batch.batchId}`, null],
      ['batch.approval', `batch:${batch.batchId}`, 'expired'],
    ]);
  });
});
