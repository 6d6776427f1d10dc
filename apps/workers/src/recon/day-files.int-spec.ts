import { text as readText } from 'node:stream/consumers';
import { formatAmount, parseAmount } from '@pay/domain';
import {
  createPgPool,
  createPrismaClient,
  MOVEMENT_FILE_COLUMNS,
  PAYOUT_FILE_COLUMNS,
  type PrismaClient,
  ReconExportRepository,
  type ReconFileKind,
  streamReconCsv,
} from '@pay/persistence';
import { createDisbursement, createMerchant, fundMerchant } from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';

/**
 * The day files besides the recon CSV of pay-ins: a merchant's payouts (fees, total debited,
 * failure code and reason) and its balance movements (every ledger event with the balance it
 * left), as the export streams them from Postgres, checked against the rows and the balance.
 */
describe('the payouts and balance-movements day files (real PostgreSQL, the real ledger)', () => {
  let prisma: PrismaClient;
  let pool: Pool;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  const window = () => ({ from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) });

  async function exportFile(merchantId: number, kind: ReconFileKind) {
    const { from, to } = window();
    const { csv, summary, done } = await streamReconCsv(pool, merchantId, from, to, kind);
    const body = await readText(csv);
    const { totals } = await summary;
    await done();
    return { body, rows: parse(body, { columns: true }) as Record<string, string>[], totals };
  }

  /** A merchant with 1,000,000 available, then a payout that succeeded, one that failed (refunded) and one in progress. */
  async function merchantWithPayouts(name = 'Toko Berkas') {
    const { merchant } = await createMerchant(prisma, { name });
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const { disbursement: ok } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
    });
    const { disbursement: failed } = await createDisbursement(prisma, merchant.id, {
      amount: 50_000_50n,
      fee: 2_500_00n,
      outcome: 'failed',
    });
    const { disbursement: pending } = await createDisbursement(prisma, merchant.id, {
      amount: 10_000_00n,
      fee: 2_500_00n,
      outcome: 'pending',
    });
    return { merchant, ok, failed, pending };
  }

  it('payouts: one row per payout of the day with its fee, total, completion and why it failed; totals over the successful ones', async () => {
    const { merchant, ok, failed, pending } = await merchantWithPayouts();
    await prisma.disbursement.update({ where: { id: ok.id }, data: { accountName: '=HYPERLINK("x")' } });
    const { body, rows, totals } = await exportFile(merchant.id, 'payouts');

    expect(body.split('\n')[0]).toBe(PAYOUT_FILE_COLUMNS.join(','));
    const byId = Object.fromEntries(rows.map((r) => [r.merchantTrxId, r]));
    expect(rows).toHaveLength(3);
    expect(byId[ok.merchantTrxId]).toMatchObject({
      platformTrxId: ok.platformTrxId,
      merchantName: 'Toko Berkas',
      status: 'success',
      bankCode: 'BCA',
      accountNo: '1234567890',
      // What a payee's name could hold is no formula in a spreadsheet.
      accountName: '\'=HYPERLINK("x")',
      amount: '100000',
      fee: '2500',
      totalAmount: '102500',
      completedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      failureCode: '',
      failureReason: '',
    });
    expect(byId[failed.merchantTrxId]).toMatchObject({
      status: 'failed',
      amount: '50000.5',
      // A failed payout's fee is given back: charged nothing, as the inquiry says.
      fee: '0',
      totalAmount: '50000.5',
      completedAt: expect.stringMatching(/^\d{4}-/),
      failureCode: 'REJECTED_BY_BANK',
      failureReason: 'Rejected by the beneficiary bank',
    });
    expect(byId[pending.merchantTrxId]).toMatchObject({ status: 'pending', completedAt: '', failureCode: '' });
    expect(totals).toEqual({ rowCount: 3, gross: 100_000_00n, fees: 2_500_00n, net: 102_500_00n });
  });

  it('movements: every ledger event of the day in order; each row is the one before plus its change, and the last is the balance', async () => {
    const { merchant, ok, failed } = await merchantWithPayouts();
    const { body, rows, totals } = await exportFile(merchant.id, 'movements');

    expect(body.split('\n')[0]).toBe(MOVEMENT_FILE_COLUMNS.join(','));
    const events = await prisma.ledgerEvent.findMany({ where: { merchantId: merchant.id }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.seq, r.type])).toEqual(events.map((e) => [String(e.seq), e.type]));
    expect(rows.map((r) => r.type)).toEqual([
      'payin.recorded',
      'settlement.credited',
      'payout.debited',
      'payout.debited',
      'payout.refunded',
      'payout.debited',
    ]);
    // Signed Rupiah text to sen, exactly (no float on the way).
    const minor = (v: string) => (v.startsWith('-') ? -parseAmount(v.slice(1)) : parseAmount(v));
    let available = 0n;
    let pending = 0n;
    for (const r of rows) {
      available += minor(r.availableChange);
      pending += minor(r.pendingChange);
      expect([minor(r.availableAfter), minor(r.pendingAfter)]).toEqual([available, pending]);
    }
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } });
    expect(rows[rows.length - 1]).toMatchObject({
      availableAfter: String(formatAmount(balance.available)),
      pendingAfter: String(formatAmount(balance.pending)),
    });
    // The rows name what they are about: the merchant's own ids.
    expect(rows.filter((r) => r.merchantTrxId === failed.merchantTrxId).map((r) => r.type)).toEqual([
      'payout.debited',
      'payout.refunded',
    ]);
    expect(rows.find((r) => r.merchantTrxId === ok.merchantTrxId)).toMatchObject({
      availableChange: '-102500',
      pendingChange: '0',
    });
    expect(rows.find((r) => r.type === 'settlement.credited')?.settlementId).toMatch(/^[0-9a-f-]{36}$/);
    expect(totals).toEqual({ rowCount: 6, gross: null, fees: null, net: null });
  });

  it('a movements file is stale once the day holds another event; a payouts file once a payout of the day changed', async () => {
    const { merchant, pending } = await merchantWithPayouts();
    const repo = new ReconExportRepository(prisma);
    const { from, to } = window();
    const built = async (kind: ReconFileKind) => {
      const e = await repo.createQueued(merchant.id, new Date().toISOString().slice(0, 10), kind);
      const { totals } = await exportFile(merchant.id, kind);
      await repo.finish(e.id, { objectKey: `k/${e.id}`, ...totals, dataAsOf: new Date() });
      return prisma.reconExport.findUniqueOrThrow({ where: { id: e.id } });
    };
    const movements = await built('movements');
    const payouts = await built('payouts');
    expect(movements.kind).toBe('movements');
    expect(await repo.isStale(movements, from, to)).toBe(false);
    expect(await repo.isStale(payouts, from, to)).toBe(false);
    await createDisbursement(prisma, merchant.id, { amount: 1_000_00n, fee: 2_500_00n, outcome: 'debited' });
    expect(await repo.isStale(movements, from, to)).toBe(true);
    expect(await repo.isStale(payouts, from, to)).toBe(true);
    // Each kind of a day is its own export: the movements in progress do not hold back the payouts.
    const day = new Date().toISOString().slice(0, 10);
    const a = await repo.createQueued(merchant.id, day, 'movements');
    const b = await repo.createQueued(merchant.id, day, 'payouts');
    expect(a.id).not.toBe(b.id);
    expect((await repo.createQueued(merchant.id, day, 'payouts')).id).toBe(b.id);
    expect(pending.status).toBe('pending');
  });
});
