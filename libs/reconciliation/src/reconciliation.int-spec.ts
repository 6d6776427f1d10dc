import type { SnapBankRail, SnapQrisAcquirer } from '@pay/bank-rail';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import { payinsPaidAtSimulator, simulatorAcquirerAndBank, SnapSimulator } from '@pay/devstack';
import {
  createPgPool,
  createPrismaClient,
  PayinRefundRepository,
  type PrismaClient,
  verifyLedger,
} from '@pay/persistence';
import { createMerchant, createTestDatabase, debitedRefund, dropDatabase, ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { parseReportCsv, parseSnapReport, parseSnapStatement, REPORT_CSV_COLUMNS } from './sources/parse-sources';
import { ReconciliationDesk } from './desk/reconciliation-desk';
import { Reconciliation } from './reconciliation';

/**
 * Three-way reconciliation against the SNAP simulator as acquirer and bank (its own process):
 * pay-ins generated, paid and applied through the acquirer, the day settled by it (cleanly, or with
 * one planted fault), its report and the bank statement fetched over SNAP, reconciled, and what the
 * run booked applied by the ledger. Each day in a database of its own: a run reads the whole day.
 */
describe('reconciliation of a day against the simulator acquirer and bank (real Postgres, simulator process)', () => {
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  const days: {
    url: string;
    prisma: PrismaClient;
    pool: Pool;
    sim: SnapSimulator;
    acquirer: SnapQrisAcquirer;
    rail: SnapBankRail;
  }[] = [];

  afterAll(async () => {
    for (const d of days) {
      d.acquirer.close();
      d.rail.close();
      await d.sim.stop();
      await d.prisma.$disconnect();
      await d.pool.end();
      await dropDatabase(d.url);
    }
  });

  /** A fresh day: its own database and simulator, three pay-ins paid at the acquirer, applied and recorded by the ledger. */
  async function day() {
    const url = await createTestDatabase('pay_recon');
    const prisma = createPrismaClient(url, 4);
    const pool = createPgPool(url, 4);
    const sim = await SnapSimulator.start({
      databaseUrl: url,
      notifyUrl: 'http://127.0.0.1:9/snap/v1.0/qr/qr-mpm-notify',
    });
    const { acquirer, bank: rail } = simulatorAcquirerAndBank(sim, pool);
    days.push({ url, prisma, pool, sim, acquirer, rail });
    const merchantId = (await createMerchant(prisma)).merchant.id;
    const ledger = ledgerFor(prisma);
    const paid = await payinsPaidAtSimulator(prisma, sim, acquirer, merchantId, [150_000_00n, 25_000_00n, 1_234_56n]);
    const recon = new Reconciliation(pool, { acquirer: 'sandbox', rail: 'snap', settlementLagDays: 0 });

    /** The report and the statement fetched over SNAP, ingested, the day run, what it booked applied by the ledger. */
    async function reconcile() {
      const report = await acquirer.settlementReport(today);
      if (report.kind !== 'report') throw new Error(report.reason);
      reportBodies.push(report.body);
      await recon.ingestReport(today, parseSnapReport(report.body), 'snap', 'test');
      const statement = await rail.statement(today);
      if (statement.kind !== 'statement') throw new Error(statement.reason);
      await recon.ingestStatement(today, parseSnapStatement(statement.body, today), 'snap', 'test');
      const result = await recon.run(today, 'test');
      const booked = await prisma.outbox.findMany({
        where: { topic: Topic.LedgerCommands, key: '0' },
        orderBy: { id: 'asc' },
      });
      const outcomes = [];
      for (const row of booked) outcomes.push(await ledger.apply(parseLedgerCommand(row.payload)));
      return { result, booked: booked.map((r) => (r.payload as { type: string }).type), outcomes };
    }
    const balance = async (code: string) =>
      (await prisma.$queryRaw<{ balance: bigint }[]>`SELECT balance FROM account_balances WHERE code = ${code}`)[0]
        ?.balance ?? 0n;
    const settle = (body: object) => sim.control('qris/settle', { date: today, settlementDate: today, ...body });
    const reportBodies: Record<string, unknown>[] = [];
    const refunds = new PayinRefundRepository(pool);

    /** A refund of a paid pay-in as the platform makes it: recorded, debited by the ledger, refunded at the acquirer (78), success. */
    async function refund(p: (typeof paid)[number], amount: bigint) {
      const { id, outcome, platformTrxId } = await debitedRefund(prisma, merchantId, p.payinId, amount);
      expect(outcome.outcome).toBe('applied');
      const atAcquirer = await acquirer.refund({ platformTrxId, refundId: id, amount, reason: 'test' });
      if (atAcquirer.kind !== 'refunded') throw new Error(JSON.stringify(atAcquirer));
      await refunds.finish(id, { status: 'success', refundNo: atAcquirer.refundNo, refundTime: atAcquirer.refundTime });
      return { id, refundNo: atAcquirer.refundNo };
    }
    /** Every account's balance summed: zero when the books balance. */
    const trialBalance = async () =>
      (
        await prisma.$queryRaw<{ sum: bigint }[]>`SELECT COALESCE(sum(balance), 0)::bigint AS sum FROM account_balances`
      )[0].sum;
    return { prisma, pool, paid, reconcile, balance, settle, recon, sim, refund, reportBodies, trialBalance };
  }

  const breaksOf = (r: { breaks: { code: string; subject: string; reference: string; status: string }[] }) =>
    r.breaks.filter((b) => b.status === 'open').map((b) => `${b.code}:${b.subject}`);
  const gross = (paid: { amount: bigint }[]) => paid.reduce((s, p) => s + p.amount, 0n);
  const mdr = (g: bigint) => (g * 70n + 5_000n) / 10_000n;

  it('a clean day: no break; the batch booked once (the receivable down by the gross), the audit clean; run again, nothing more', async () => {
    const d = await day();
    const receivable = await d.balance('acquirer:sandbox:receivable');
    expect(receivable).toBe(gross(d.paid));
    expect((await d.settle({ mode: 'normal' })).status).toBe(200);
    const first = await d.reconcile();
    expect(breaksOf(first.result)).toEqual([]);
    expect(first.booked).toEqual(['acquirer.settle']);
    expect(first.outcomes.map((o) => o.outcome)).toEqual(['applied']);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    const fees = d.paid.reduce((s, p) => s + mdr(p.amount), 0n);
    expect(await d.balance('expense:mdr:sandbox')).toBe(fees);
    expect(await d.balance('suspense')).toBe(0n);
    expect(first.result.summary).toMatchObject({
      ledgerPayins: { count: 3, amount: String(gross(d.paid)) },
      reportLines: { count: 3, amount: String(gross(d.paid)), mdr: String(fees), net: String(gross(d.paid) - fees) },
      statementCredits: { count: 1, amount: String(gross(d.paid) - fees) },
      breaks: 0,
      suspense: '0',
    });
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
    const again = await d.reconcile();
    expect(breaksOf(again.result)).toEqual([]);
    expect(again.booked).toEqual(['acquirer.settle']); // the same one row: nothing written again
  });

  it('an RRN left out: missing_in_report, and nothing else; that pay-in stays receivable', async () => {
    const d = await day();
    await d.settle({ mode: 'missing-rrn', rrn: d.paid[1].rrn });
    const { result } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['missing_in_report:payin']);
    expect(result.breaks[0]).toMatchObject({ reference: d.paid[1].rrn, expectedAmount: String(d.paid[1].amount) });
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(d.paid[1].amount);
    expect(await d.balance('suspense')).toBe(0n);
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
  });

  it('a short settlement: amount_differs on the batch, and nothing else; the shortfall in suspense', async () => {
    const d = await day();
    await d.settle({ mode: 'short', shortBy: '50000' });
    const { result, booked } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['amount_differs:batch']);
    expect(result.breaks[0].suspense).toBe('50000');
    expect(booked).toEqual(['acquirer.settle', 'books.adjust']);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect(await d.balance('suspense')).toBe(50_000n);
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
  });

  it('a duplicate line, paid twice: duplicate, and nothing else; the second net in suspense (owed back)', async () => {
    const d = await day();
    await d.settle({ mode: 'duplicate', rrn: d.paid[2].rrn });
    const { result } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['duplicate:report_line']);
    const net = d.paid[2].amount - mdr(d.paid[2].amount);
    expect(result.breaks[0]).toMatchObject({ reference: d.paid[2].rrn, suspense: String(-net) });
    expect(await d.balance('suspense')).toBe(-net);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
  });

  it('a settlement date moved: date_differs, and nothing else; the money booked as usual', async () => {
    const d = await day();
    await d.settle({ mode: 'date-moved', rrn: d.paid[0].rrn });
    const { result } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['date_differs:report_line']);
    expect(result.breaks[0]).toMatchObject({ reference: d.paid[0].rrn, expectedDate: today });
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect(await d.balance('suspense')).toBe(0n);
  });

  it('a line of a payment nobody made: missing_in_ledger, and nothing else; an owner and a resolution survive a re-run', async () => {
    const d = await day();
    await d.settle({ mode: 'unknown-rrn' });
    const { result } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['missing_in_ledger:report_line']);
    const id = result.breaks[0].id;
    const desk = new ReconciliationDesk(d.pool);
    expect((await desk.assign(id, ' finance@example.id ')).owner).toBe('finance@example.id');
    expect((await desk.resolve(id, 'the acquirer will claw it back in the next batch', 'operator:7')).status).toBe(
      'resolved',
    );
    const again = await d.reconcile();
    expect(again.result.breaks.map((b) => [b.id, b.status, b.owner])).toEqual([[id, 'resolved', 'finance@example.id']]);
  });

  it('a pay-in partly refunded, then settled: the acquirer nets the refund; no break, the receivable 0, the audit clean', async () => {
    const d = await day();
    const refunded = 40_000_00n;
    const { id, refundNo } = await d.refund(d.paid[0], refunded);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(gross(d.paid) - refunded);
    const settled = await d.settle({ mode: 'normal' });
    const fees = d.paid.reduce((s, p) => s + mdr(p.amount), 0n);
    expect(settled.body).toMatchObject({
      batches: [{ credited: String(gross(d.paid) - fees - refunded), refunds: String(refunded) }],
      refunds: 1,
    });
    const first = await d.reconcile();
    expect(d.reportBodies[0]).toMatchObject({
      totalEntries: { numberOfRefunds: '1', refundAmount: { value: '40000.00' } },
      refundData: [
        { rrn: d.paid[0].rrn, partnerRefundNo: id, refundNo, refundAmount: { value: '40000.00' }, refundDate: today },
      ],
    });
    // The CSV an acquirer without the API sends reads as the same report (its refund lines with `record` refund).
    const csv = await (await fetch(`${d.sim.controlUrl}/qris/settlement-report.csv?date=${today}`)).text();
    expect(csv.split('\n')[0]).toBe(REPORT_CSV_COLUMNS.join(','));
    expect(parseReportCsv(csv)).toEqual(parseSnapReport(d.reportBodies[0]));
    expect(breaksOf(first.result)).toEqual([]);
    expect(first.booked).toEqual(['acquirer.settle']);
    expect(first.outcomes.map((o) => o.outcome)).toEqual(['applied']);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect(await d.balance('bank:snap:cash')).toBe(gross(d.paid) - fees - refunded);
    expect(await d.balance('suspense')).toBe(0n);
    expect(first.result.summary).toMatchObject({
      ledgerRefunds: { count: 1, amount: String(refunded) },
      reportRefunds: { count: 1, amount: String(refunded) },
      matchedRefunds: { count: 1, amount: String(refunded) },
      statementCredits: { count: 1, amount: String(gross(d.paid) - fees - refunded) },
      breaks: 0,
      suspense: '0',
    });
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
    expect(await d.trialBalance()).toBe(0n);
    const again = await d.reconcile();
    expect(breaksOf(again.result)).toEqual([]);
    expect(again.booked).toEqual(['acquirer.settle']);
  });

  it('a refund line the ledger does not know, netted: missing_in_ledger on it, and nothing else; its amount in suspense', async () => {
    const d = await day();
    await d.refund(d.paid[1], 5_000_00n);
    await d.settle({ mode: 'unknown-refund', rrn: d.paid[0].rrn, shortBy: '250000' });
    const { result, booked } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['missing_in_ledger:refund_line']);
    expect(result.breaks[0]).toMatchObject({
      side: 'report',
      reference: expect.stringMatching(/^UNKNOWN-/),
      actualAmount: '250000',
      suspense: '250000',
    });
    expect(booked).toEqual(['acquirer.settle', 'books.adjust']);
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect(await d.balance('suspense')).toBe(250_000n);
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
    expect(await d.trialBalance()).toBe(0n);
  });

  it('a refund netted for more than was refunded: amount_differs on its line, and nothing else', async () => {
    const d = await day();
    const { id } = await d.refund(d.paid[1], 5_000_00n);
    await d.settle({ mode: 'refund-differs', shortBy: '100000' });
    const { result } = await d.reconcile();
    expect(breaksOf(result)).toEqual(['amount_differs:refund_line']);
    expect(result.breaks[0]).toMatchObject({
      reference: id,
      expectedAmount: '500000',
      actualAmount: '600000',
      suspense: '100000',
    });
    expect(await d.balance('acquirer:sandbox:receivable')).toBe(0n);
    expect(await d.balance('suspense')).toBe(100_000n);
    expect((await verifyLedger(d.prisma)).breaches).toEqual([]);
  });
});
