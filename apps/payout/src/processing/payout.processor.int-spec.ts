import { randomUUID } from 'node:crypto';
import { SANDBOX_ACCOUNTS, SandboxBankRail } from '@pay/bank-rail';
import { ledgerCommandId, PayoutEventType, Topic } from '@pay/contracts';
import { createPgPool, createPrismaClient, PayoutRepository, type PrismaClient } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import type { Pool } from 'pg';
import { PayoutProcessor } from './payout.processor';

describe('PayoutProcessor (real Postgres, sandbox rail)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let payouts: PayoutRepository;
  let processor: PayoutProcessor;
  let merchantId: number;

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    payouts = new PayoutRepository(pool);
    processor = new PayoutProcessor(payouts, new SandboxBankRail(pool, { latencyMs: 0, delayMs: 60_000 }), createLogger('test', 'fatal'), {
      batchSize: 16,
      leaseMs: 30_000,
      timeoutRetryMs: 2_000,
    });
    merchantId = (await createMerchant(prisma)).merchant.id;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  /** A debited disbursement, as the gateway and the ledger leave it: pending and due now. */
  async function pendingDisbursement(accountNo = '1234567890'): Promise<string> {
    const id = randomUUID();
    const platformTrxId = `DSB${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const merchantTrxId = `INV-${id.slice(0, 8)}`;
    await prisma.$executeRaw`
      INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
      VALUES (${platformTrxId}, ${merchantId}, ${merchantTrxId}, 'BCA', ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, now() + interval '1 hour')`;
    await prisma.$executeRaw`
      INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, next_check_at, debited_at, log_id)
      VALUES (${id}::uuid, ${merchantId}, ${merchantTrxId}, ${platformTrxId}, 'BCA', ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, 'https://merchant.example/cb', 'pending', now(), now(), ${`log-${id}`})`;
    return id;
  }

  const outboxOf = (id: string) =>
    prisma.outbox.findMany({ where: { OR: [{ payload: { path: ['payoutId'], equals: id } }, { payload: { path: ['disbursementId'], equals: id } }] }, orderBy: { id: 'asc' } });

  it('claims a due disbursement with every field of the model, and leases it', async () => {
    const id = await pendingDisbursement();
    const [claimed] = await payouts.claimDue(16, 30_000, id);
    expect(claimed).toMatchObject({ id, merchantId, bankCode: 'BCA', accountNo: '1234567890', amount: 10000000n, fee: 250000n, status: 'pending', submitAttempts: 0, submittedAt: null, logId: `log-${id}` });
    expect(claimed.leaseUntil?.getTime()).toBeGreaterThan(Date.now() + 25_000);
    expect(Object.keys(claimed).sort()).toEqual(Object.keys((await prisma.disbursement.findUniqueOrThrow({ where: { id } })) as object).sort());
    // Leased: no other worker gets it until the lease lapses or is let go.
    expect(await payouts.claimDue(16, 30_000, id)).toEqual([]);
    await payouts.recheckAt(id, new Date(Date.now() - 1000), 'REF-1');
    const [again] = await payouts.claimDue(16, 30_000, id);
    expect(again).toMatchObject({ id, railReference: 'REF-1' });
  });

  it('pays a disbursement out once and announces the success in the same transaction', async () => {
    const id = await pendingDisbursement();
    expect(await processor.processDue(id)).toBe(1);
    const d = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
    expect(d).toMatchObject({ status: 'success', submitAttempts: 1, leaseUntil: null });
    expect(d.successAt).toBeInstanceOf(Date);
    expect(d.railReference).toMatch(/^SBX/);
    expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: id } })).toMatchObject({ submissions: 1, amount: 10000000n });

    const rows = await outboxOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      topic: Topic.PayoutEvents,
      key: String(merchantId),
      headers: { 'message-id': `disbursement.${id}.success`, 'log-id': `log-${id}` },
      payload: {
        eventId: `disbursement.${id}.success`,
        type: PayoutEventType.DisbursementSucceeded,
        merchantId,
        amount: '10000000',
        fee: '250000',
        totalAmount: '10250000',
        status: 'success',
        successAt: d.successAt?.toISOString(),
        failureReason: null,
      },
    });

    // Final: nothing more to do, and finalising again changes nothing.
    expect(await processor.processDue(id)).toBe(0);
    expect(await payouts.succeed({ ...d, status: 'pending' }, 'OTHER', new Date())).toBe(false);
    expect(await outboxOf(id)).toHaveLength(1);
  });

  it('records a rejected transfer as failed with the refund command before the outcome event', async () => {
    const id = await pendingDisbursement(SANDBOX_ACCOUNTS.rejected.bank);
    expect(await processor.processDue(id)).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', failureReason: 'Rejected by the beneficiary bank', successAt: null });
    const rows = await outboxOf(id);
    expect(rows.map((r) => r.topic)).toEqual([Topic.LedgerCommands, Topic.PayoutEvents]);
    expect(rows[0]).toMatchObject({
      key: String(merchantId),
      headers: { 'message-id': ledgerCommandId.payoutRefund(id), 'log-id': `log-${id}` },
      payload: { type: 'payout.refund', commandId: ledgerCommandId.payoutRefund(id), merchantId, payoutId: id, reason: 'Rejected by the beneficiary bank' },
    });
    expect(rows[1].payload).toMatchObject({ type: PayoutEventType.DisbursementFailed, status: 'failed', fee: '0', feeFixed: '250000', totalAmount: '10000000', failureReason: 'Rejected by the beneficiary bank' });
  });

  it('after a rail timeout asks the rail again later instead of submitting twice', async () => {
    const id = await pendingDisbursement(SANDBOX_ACCOUNTS.timeoutThenSuccess.bank);
    expect(await processor.processDue(id)).toBe(1);
    const d = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
    expect(d).toMatchObject({ status: 'pending', submitAttempts: 1, leaseUntil: null });
    expect(d.submittedAt).toBeInstanceOf(Date);
    expect(d.nextCheckAt?.getTime()).toBeGreaterThan(Date.now());
    // Due again: the rail is asked for the transfer's status (processing), not sent it again.
    await prisma.disbursement.update({ where: { id }, data: { nextCheckAt: new Date(Date.now() - 1000) } });
    expect(await processor.processDue(id)).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending', submitAttempts: 1, railReference: expect.stringMatching(/^SBX/) });
    expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: id } })).toMatchObject({ submissions: 1 });
    expect(await outboxOf(id)).toHaveLength(0);
  });
});
