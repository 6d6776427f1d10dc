import { randomUUID } from 'node:crypto';
import {
  type AccountLookup,
  RailTimeoutError,
  SANDBOX_ACCOUNTS,
  SandboxBankRail,
  sandboxHolderName,
} from '@pay/bank-rail';
import { ErrorCode, ledgerCommandId, parseLedgerCommand, Topic } from '@pay/contracts';
import {
  BatchRepository,
  createPgPool,
  createPrismaClient,
  type NewBatchRow,
  PayoutRepository,
  type PrismaClient,
} from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createMerchant, createTestDatabase, dropDatabase, fundMerchant, ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { BatchRowsProcessor } from './batch-rows.processor';
import { PayoutProcessor } from './payout.processor';

/**
 * The payout service's half of batch payouts (issue 44) on a database of its own (the loop claims
 * every due row): the name check through the rail (refusals, the bank away waited out, a name
 * compared as banks do), each funded row a disbursement with its payout.debit, the ledger's refusal
 * of the rows the balance does not cover, and the batch announced once when every row is final.
 */
describe('BatchRowsProcessor (real Postgres, sandbox rail)', () => {
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let batches: BatchRepository;
  let processor: BatchRowsProcessor;
  let payouts: PayoutProcessor;
  /** Accounts whose bank is away for their next n look-ups */
  const away = new Map<string, number>();

  beforeAll(async () => {
    url = await createTestDatabase('pay_batch_rows');
    prisma = createPrismaClient(url, 2);
    pool = createPgPool(url, 4);
    batches = new BatchRepository(pool);
    const sandbox = new SandboxBankRail(pool, { latencyMs: 0, delayMs: 0 });
    const rail = Object.assign(Object.create(sandbox) as SandboxBankRail, {
      async lookupAccount(bankCode: string, accountNo: string): Promise<AccountLookup> {
        const left = away.get(accountNo) ?? 0;
        if (left > 0) {
          away.set(accountNo, left - 1);
          throw new RailTimeoutError();
        }
        return sandbox.lookupAccount(bankCode, accountNo);
      },
    });
    const logger = createLogger('test', 'fatal');
    const options = { batchSize: 50, leaseMs: 30_000, timeoutRetryMs: 1, safetyIntervalMs: 60_000 };
    processor = new BatchRowsProcessor(batches, rail, logger, options);
    payouts = new PayoutProcessor(new PayoutRepository(pool), sandbox, logger, options);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  const row = (rowNo: number, over: Partial<NewBatchRow> = {}): NewBatchRow => ({
    rowNo,
    merchantTrxId: `R-${randomUUID()}`,
    bankCode: 'BCA',
    accountNo: `11122${String(rowNo).padStart(5, '0')}`,
    accountName: null,
    amount: 100_000_00n,
    refusal: null,
    ...over,
  });
  const duplicate = { code: 'DUPLICATE_MERCHANT_TRX_ID', message: 'taken' };
  async function submit(
    merchantId: number,
    rows: NewBatchRow[],
    notifyUrl: string | null = 'https://merchant.example/b',
  ) {
    const verdict = await batches.submit(
      { id: randomUUID(), merchantId, batchId: `B-${randomUUID()}`, requestHash: 'h', notifyUrl, logId: null },
      rows,
      duplicate,
    );
    if (verdict.kind === 'conflict') throw new Error('conflict');
    return verdict.batch;
  }
  /** The ledger decides every command the outbox holds (as its consumer would), once. */
  async function ledgerDecides() {
    const rows = await prisma.outbox.findMany({ where: { topic: Topic.LedgerCommands }, orderBy: { id: 'asc' } });
    for (const r of rows) await ledgerFor(prisma).apply(parseLedgerCommand(r.payload));
    await prisma.outbox.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  }
  const viewOf = async (batchUuid: string) => batches.rows(batchUuid, 0, 100);
  const callbacksOf = (merchantId: number) =>
    prisma.webhookDelivery.findMany({ where: { merchantId, eventType: 'disbursement.batch.completed' } });

  it('checks each row with the bank: refusals with their codes, the bank away waited out, names compared as banks do; then pays and announces once', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const holder = sandboxHolderName('BNI', '5550009999');
    away.set('7770001111', 2);
    const batch = await submit(merchant.id, [
      row(1, { bankCode: 'BNI', accountNo: '5550009999', accountName: ` ${holder.toLowerCase().replace(' ', '  ')}.` }),
      row(2, { accountName: 'SOMEONE ELSE' }),
      row(3, { accountNo: SANDBOX_ACCOUNTS.notFound.bank }),
      row(4, { accountNo: SANDBOX_ACCOUNTS.blocked.bank }),
      row(5, { accountNo: '7770001111' }),
      row(6, { merchantTrxId: 'bad', refusal: { code: 'VALIDATION_ERROR', message: 'amount: ...' }, amount: null }),
    ]);

    await processor.processDue();
    let view = await viewOf(batch.id);
    expect(view.map((r) => [r.rowNo, r.currentStatus, r.failureCode])).toEqual([
      [1, 'pending', null],
      [2, 'refused', ErrorCode.AccountNameMismatch],
      [3, 'refused', ErrorCode.AccountNotFound],
      [4, 'refused', ErrorCode.AccountBlocked],
      [5, 'checking', null],
      [6, 'refused', 'VALIDATION_ERROR'],
    ]);
    // Row 1 is a disbursement under the bank's name, funding until the ledger decides, its debit in the outbox
    const d1 = await prisma.disbursement.findUniqueOrThrow({ where: { id: view[0].disbursementId as string } });
    expect(d1).toMatchObject({ status: 'funding', accountName: holder, amount: 100_000_00n, fee: 2_500_00n });
    const debit = await prisma.outbox.findFirstOrThrow({ where: { payload: { path: ['payoutId'], equals: d1.id } } });
    expect(parseLedgerCommand(debit.payload)).toMatchObject({
      type: 'payout.debit',
      commandId: ledgerCommandId.payoutDebit(d1.id),
      amount: '10000000',
      fee: '250000',
    });
    // The bank away twice: checked again each round, never failed for it
    await processor.processDue();
    view = await viewOf(batch.id);
    expect([view[4].currentStatus, view[4].checkAttempts]).toEqual(['checking', 2]);
    await processor.processDue();
    view = await viewOf(batch.id);
    expect([view[4].currentStatus, view[4].checkAttempts]).toEqual(['pending', 3]);

    await ledgerDecides();
    expect(await callbacksOf(merchant.id)).toHaveLength(0);
    await payouts.processDue();
    await ledgerDecides();
    view = await viewOf(batch.id);
    expect(view.filter((r) => r.currentStatus === 'success').map((r) => r.rowNo)).toEqual([1, 5]);

    await processor.processDue();
    await processor.processDue();
    const callbacks = await callbacksOf(merchant.id);
    expect(callbacks).toHaveLength(1);
    expect(JSON.parse(callbacks[0].body)).toMatchObject({
      type: 'disbursement.batch.completed',
      data: {
        batchId: batch.batchId,
        rowCount: 6,
        acceptedCount: 5,
        counts: { success: 2, failed: 0, refused: 4, reversed: 0 },
        totals: { amount: 200000, fee: 5000, totalAmount: 205000 },
      },
    });
    expect(callbacks[0].url).toBe('https://merchant.example/b');
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } });
    expect(balance.available).toBe(1_000_000_00n - 2n * 102_500_00n);
  });

  it('the balance covers rows in order: those that would overdraw are refused INSUFFICIENT_BALANCE; no notifyUrl, no callback', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [2n * 102_500_00n]);
    const batch = await submit(merchant.id, [row(1), row(2), row(3)], null);
    await processor.processDue();
    await ledgerDecides();
    await payouts.processDue();
    await ledgerDecides();
    await processor.processDue();
    const view = await viewOf(batch.id);
    expect(view.map((r) => [r.currentStatus, r.refusalReason])).toEqual([
      ['success', null],
      ['success', null],
      ['refused', 'INSUFFICIENT_BALANCE'],
    ]);
    const found = await batches.find(merchant.id, batch.batchId);
    expect(found?.completedAt).toBeInstanceOf(Date);
    expect(found?.summary).toMatchObject({ success: 2, refused: 1, successAmount: 200_000_00n, successFee: 5_000_00n });
    expect(await prisma.webhookDelivery.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('a merchantTrxId a single transfer took while the row waited: the row is refused, the transfer untouched', async () => {
    const { merchant } = await createMerchant(prisma);
    const taken = row(1);
    const batch = await submit(merchant.id, [taken]);
    // A transfer recorded meanwhile under the same merchantTrxId
    const id = randomUUID();
    await prisma.$executeRaw`
      INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
      VALUES (${`DSB-${id}`}, ${merchant.id}, ${taken.merchantTrxId}, 'BCA', '1234567890', 'X', 100, 0, now())`;
    await prisma.$executeRaw`
      INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status)
      VALUES (${id}::uuid, ${merchant.id}, ${taken.merchantTrxId}, ${`DSB-${id}`}, 'BCA', '1234567890', 'X', 100, 0, '', 'funding')`;
    await processor.processDue();
    const [view] = await viewOf(batch.id);
    expect([view.currentStatus, view.failureCode, view.disbursementId]).toEqual([
      'refused',
      'DUPLICATE_MERCHANT_TRX_ID',
      null,
    ]);
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(1);
  });
});
