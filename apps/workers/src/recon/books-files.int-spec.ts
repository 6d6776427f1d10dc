import { randomUUID } from 'node:crypto';
import { BooksExports } from '@pay/backoffice';
import type { BooksExportView } from '@pay/contracts/dashboard';
import { parseAmount } from '@pay/domain';
import {
  createPgPool,
  createPrismaClient,
  JOURNAL_FILE_COLUMNS,
  type PrismaClient,
  ReconExportRepository,
  TRIAL_BALANCE_FILE_COLUMNS,
  trialBalance,
} from '@pay/persistence';
import { createLogger, ObjectStore, ReconExportProducer, storageConfigSchema } from '@pay/platform';
import { DAY_REPORTS_CSV_HEADER, Reconciliation, ReconciliationDesk } from '@pay/reconciliation';
import { S3Proxy } from '@pay/devstack';
import {
  createDisbursement,
  createMerchant,
  createTestDatabase,
  dropDatabase,
  fundMerchant,
  insertPayin,
  waitFor,
} from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';
import { ReconExportQueue } from './recon-export.queue';

type Row = Record<string, string>;
const sen = (rupiah: string) => (rupiah === '' ? 0n : parseAmount(rupiah));
const jakartaDay = (daysAgo = 0) =>
  new Date(Date.now() + 7 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
const jakartaToday = () => jakartaDay();

/**
 * The finance exports' path for a describe: the workers' export queue on `databaseUrl`, its own
 * queue prefix, into a signing S3 of its own, and the back office's use case over it.
 */
async function exportPath(databaseUrl: string, name: string) {
  const prisma = createPrismaClient(databaseUrl, 4);
  const pool = createPgPool(databaseUrl, 4);
  const s3 = await S3Proxy.start();
  const store = new ObjectStore(storageConfigSchema.parse(s3.env), 30_000);
  await store.ensureBucket();
  const logger = createLogger('workers-test', 'fatal');
  const connection = { url: process.env.TEST_REDIS_URL as string };
  const prefix = `${process.env.TEST_REDIS_PREFIX}${name}-${randomUUID().slice(0, 8)}`;
  const repository = new ReconExportRepository(prisma);
  const queue = new ReconExportQueue(repository, pool, store, logger, { connection, prefix });
  const producer = new ReconExportProducer(connection, prefix, logger);
  const exports = new BooksExports(repository, store, producer);
  await queue.start();
  return {
    prisma,
    pool,
    exports,
    close: async () => {
      await queue.stop();
      await producer.close();
      await prisma.$disconnect();
      await pool.end();
      await s3.close();
    },
  };
}

/**
 * The finance exports end to end (issue 43): requested through the back office's use case, built
 * by the workers' export queue into a signing S3, downloaded from the presigned URL. Other suites
 * write to the same books meanwhile: a file is judged against the rows it names and the totals of
 * its own snapshot, and a trial balance compared when no entry was booked in between.
 */
describe('the books exports: journal and trial balance through the export queue (real Postgres, Redis, S3)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let exports: BooksExports;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ prisma, pool, exports, close } = await exportPath(process.env.DATABASE_URL as string, 'books'));
  });
  afterAll(() => close());

  /** Requests the day's file and waits until it is built; the CSV from its URL, parsed. */
  async function built(date: string, kind: 'journal' | 'trial-balance') {
    const first = await exports.request({ date, kind });
    let e: BooksExportView = first;
    await waitFor(
      async () => {
        e = await exports.get(first.id);
        // Other suites book entries today meanwhile: a file of today may be stale at once (served as of its snapshot).
        return e.status === 'ready' || e.status === 'stale' || e.status === 'failed';
      },
      20_000,
      `the ${kind} export of ${date}`,
    );
    expect(e).toMatchObject({ status: expect.stringMatching(/^(ready|stale)$/), error: null });
    const res = await fetch(e.url as string);
    expect(res.status).toBe(200);
    const body = await res.text();
    return { e, body, rows: parse(body, { columns: true }) as Row[] };
  }

  it("journal: every posting of the day's entries, in entry order, debits = credits to the sen; the same export again", async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [250_000_50n, 100_000_00n]);
    await createDisbursement(prisma, merchant.id, { amount: 50_000_00n, fee: 2_500_00n, outcome: 'success' });
    const date = jakartaToday();

    const { e, body, rows } = await built(date, 'journal');
    expect(body.split('\n')[0]).toBe(JOURNAL_FILE_COLUMNS.join(','));
    expect(e).toMatchObject({ date, kind: 'journal', rows: rows.length, balanced: true, error: null });
    expect(e.url).toContain(`books/${date}/journal-${e.id}.csv`);

    // Every posting of every entry the file names, and no other: as many rows as the postings rows.
    const entryIds = [...new Set(rows.map((r) => r.entryId))];
    expect(e.entries).toBe(entryIds.length);
    const {
      rows: [{ n }],
    } = await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM postings WHERE entry_id = ANY($1::bigint[])', [
      entryIds,
    ]);
    expect(rows).toHaveLength(Number(n));
    const {
      rows: [{ outside }],
    } = await pool.query<{ outside: string }>(
      `SELECT count(*)::text AS outside FROM journal_entries WHERE id = ANY($1::bigint[]) AND business_date <> $2::date`,
      [entryIds, date],
    );
    expect(outside).toBe('0');
    // Ordered by entry id; each row a debit or a credit.
    const ids = rows.map((r) => BigInt(r.entryId));
    expect(ids.every((id, i) => i === 0 || ids[i - 1] <= id)).toBe(true);
    expect(rows.every((r) => (r.debit === '') !== (r.credit === ''))).toBe(true);
    const debits = rows.reduce((s, r) => s + sen(r.debit), 0n);
    const credits = rows.reduce((s, r) => s + sen(r.credit), 0n);
    expect(debits).toBe(credits);
    expect([parseAmount(String(e.totalDebit)), parseAmount(String(e.totalCredit))]).toEqual([debits, credits]);

    // This merchant's day, all of it: its entries (pay-ins, the settlement, the payout) with their postings.
    const mine = await prisma.journalEntry.findMany({
      where: { merchantId: merchant.id },
      select: { id: true, type: true },
    });
    expect(mine.map((m) => m.type)).toEqual(
      expect.arrayContaining(['payin.recorded', 'settlement.credited', 'payout.debited']),
    );
    for (const m of mine) expect(entryIds).toContain(String(m.id));
    const settled = rows.find((r) => r.merchantId === String(merchant.id) && r.type === 'settlement.credited');
    expect(settled).toMatchObject({
      businessDate: date,
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(rows).toContainEqual(
      expect.objectContaining({
        type: 'settlement.credited',
        account: `merchant:${merchant.id}:pending`,
        debit: '350000.5',
        credit: '',
      }),
    );

    // Asked again: the same export (its file, while the day's entries stand; else a new one of the day).
    const again = await exports.request({ date, kind: 'journal' });
    if (again.id !== e.id) expect((await exports.get(e.id)).status).toBe('stale');
    else expect(again).toMatchObject({ status: 'ready', url: expect.any(String) });
  }, 40_000);

  it('trial balance: the lines of trialBalance(prisma, {date}) at the close of the day, as CSV', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [75_000_25n]);
    const date = jakartaToday();
    // Other suites book entries meanwhile: compare when the file and the query read the same entries.
    let compared = false;
    for (let attempt = 0; attempt < 10 && !compared; attempt++) {
      const { e, body, rows } = await built(date, 'trial-balance');
      const tb = await trialBalance(prisma, { date });
      if (tb.entries !== e.entries) continue;
      compared = true;
      expect(body.split('\n')[0]).toBe(TRIAL_BALANCE_FILE_COLUMNS.join(','));
      const amount = (v: bigint) => (v === 0n ? '' : String(Number(v) / 100));
      expect(rows).toEqual(
        tb.lines.map((l) => ({
          account: l.code,
          kind: l.kind,
          merchantId: l.merchantId === null ? '' : String(l.merchantId),
          debit: amount(l.debit),
          credit: amount(l.credit),
        })),
      );
      expect(rows).toContainEqual(
        expect.objectContaining({ account: `merchant:${merchant.id}:available`, credit: '75000.25' }),
      );
      expect(e).toMatchObject({ rows: tb.lines.length, balanced: true });
      expect([parseAmount(String(e.totalDebit)), parseAmount(String(e.totalCredit))]).toEqual([
        tb.totalDebit,
        tb.totalCredit,
      ]);
    }
    expect(compared).toBe(true);
  }, 60_000);

  it("a past day's file: one export however often it is asked for, queued or ready", async () => {
    const date = new Date(Date.now() + 7 * 3_600_000 - 3 * 86_400_000).toISOString().slice(0, 10);
    const first = await exports.request({ date, kind: 'trial-balance' });
    const second = await exports.request({ date, kind: 'trial-balance' });
    expect(second.id).toBe(first.id);
    const { e } = await built(date, 'trial-balance');
    expect(e.id).toBe(first.id);
    const third = await exports.request({ date, kind: 'trial-balance' });
    expect(third).toMatchObject({ id: first.id, status: 'ready', url: expect.any(String) });
    const row = await prisma.reconExport.findUniqueOrThrow({ where: { id: first.id } });
    expect(row).toMatchObject({
      merchantId: null,
      kind: 'trial-balance',
      objectKey: `books/${date}/trial-balance-${first.id}.csv`,
    });
  }, 40_000);

  it('refuses a future day or another kind, and no merchant kind can be made without a merchant', async () => {
    const tomorrow = new Date(Date.now() + 31 * 3_600_000).toISOString().slice(0, 10);
    await expect(exports.request({ date: tomorrow, kind: 'journal' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'date',
    });
    await expect(exports.request({ date: '2026-11-20', kind: 'payins' })).rejects.toMatchObject({ field: 'kind' });
    await expect(exports.get(randomUUID())).rejects.toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    await expect(new ReconExportRepository(prisma).createQueued(null, '2026-11-20', 'payins')).rejects.toThrow(
      /recon_exports_owner_check/,
    );
  });
});

/**
 * The day's reconciliation report as a finance export (issue 43): every run of the Jakarta day
 * planted in a database of this spec's own (a run reads the whole day), requested through the back
 * office's use case, built by the workers' export queue into a signing S3, downloaded from its
 * presigned URL, and gone stale once the day is run again or a break resolved or assigned.
 */
describe('the reconciliation export: the day report of every run through the export queue (real Postgres, Redis, S3)', () => {
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let exports: BooksExports;
  let close: () => Promise<void>;
  const today = jakartaDay();

  beforeAll(async () => {
    url = await createTestDatabase('pay_recon_export');
    ({ prisma, pool, exports, close } = await exportPath(url, 'recon-file'));
  }, 60_000);
  afterAll(async () => {
    await close();
    await dropDatabase(url);
  });

  /** Requests the day's reconciliation file, waits until it is built; the CSV from its URL, as text and rows. */
  async function built(date: string) {
    const first = await exports.request({ date, kind: 'reconciliation' });
    let e: BooksExportView = first;
    await waitFor(
      async () => {
        e = await exports.get(first.id);
        return e.status === 'ready' || e.status === 'failed';
      },
      20_000,
      `the reconciliation export of ${date}`,
    );
    expect(e).toMatchObject({ status: 'ready', error: null });
    return { e, ...(await download(e)) };
  }
  async function download(e: BooksExportView) {
    expect(e.url).toContain(`books/${e.date}/reconciliation-${e.id}.csv`);
    expect(e.url).toContain('X-Amz-Signature=');
    const res = await fetch(e.url as string);
    expect(res.status).toBe(200);
    const body = await res.text();
    return { body, rows: parse(body, { columns: true }) as Row[] };
  }

  /**
   * Today, two runs: qris over snap (one pay-in of 150,000.00 in the report with a line of an RRN
   * no pay-in has, both in batch STL-1, the bank crediting the batch's whole net), and sandbox over
   * snap with no report of its own: the same statement's credit is of no sandbox batch.
   */
  async function plantDay() {
    const { merchant } = await createMerchant(prisma);
    const payinId = await insertPayin(prisma, merchant.id, 150_000_00n, 0n);
    const payin = await prisma.payin.update({
      where: { id: payinId },
      data: { acquirerReference: `ACQ-${randomUUID()}`, sandbox: false },
    });
    const qris = new Reconciliation(pool, { acquirer: 'qris', rail: 'snap', settlementLagDays: 0 });
    const line = { referenceNo: null, batchId: 'STL-1', transactionDate: today, settlementDate: today };
    await qris.ingestReport(
      today,
      {
        lines: [
          { ...line, lineNo: 1, rrn: payin.rrn as string, gross: 150_000_00n, mdr: 1_050_00n, net: 148_950_00n },
          // An RRN nobody paid, shaped as a formula: its cell is neutralised.
          { ...line, lineNo: 2, rrn: '=1+2', gross: 20_000_00n, mdr: 140_00n, net: 19_860_00n },
        ],
        refunds: [],
      },
      'csv',
      'test',
    );
    await qris.ingestStatement(
      today,
      [{ lineNo: 1, transactionId: 'STL-1', type: 'CREDIT', amount: 168_810_00n, date: today, remark: 'QRIS STL-1' }],
      'csv',
      'test',
    );
    const report = await qris.run(today, 'test');
    const sandbox = new Reconciliation(pool, { acquirer: 'sandbox', rail: 'snap', settlementLagDays: 0 });
    await sandbox.run(today, 'test');
    return { qris, report, rrn: payin.rrn as string };
  }

  it("a day of two runs: the file is every run's summary then breaks, exact to the sen; resolved, then run again, it goes stale", async () => {
    const { qris, report, rrn } = await plantDay();
    const desk = new ReconciliationDesk(pool);
    const open = report.breaks.filter((b) => b.status === 'open');
    expect(open.map((b) => `${b.code}:${b.subject}:${b.reference}`)).toEqual(['missing_in_ledger:report_line:=1+2']);

    const { e, body, rows } = await built(today);
    expect(body.split('\n')[0]).toBe(DAY_REPORTS_CSV_HEADER.join(','));
    expect(e).toMatchObject({
      date: today,
      kind: 'reconciliation',
      rows: rows.length,
      entries: 2,
      openBreaks: 2,
      totalDebit: null,
      totalCredit: null,
      balanced: null,
    });

    // qris first (runs by acquirer), its summary rows then its break row; then sandbox's.
    const summary = (acquirer: string) =>
      Object.fromEntries(
        rows
          .filter((r) => r.acquirer === acquirer && r.record === 'summary')
          .map((r) => [r.name, `${r.count}/${r.amount}`]),
      );
    expect(rows.map((r) => `${r.acquirer}/${r.rail}/${r.record}`)).toEqual([
      ...Array(rows.filter((r) => r.acquirer === 'qris' && r.record === 'summary').length).fill('qris/snap/summary'),
      'qris/snap/break',
      ...Array(rows.filter((r) => r.acquirer === 'sandbox' && r.record === 'summary').length).fill(
        'sandbox/snap/summary',
      ),
      'sandbox/snap/break',
    ]);
    expect(rows.filter((r) => r.acquirer === 'qris' && r.record === 'summary')).toHaveLength(16);
    expect(summary('qris')).toMatchObject({
      ledgerPayins: '1/150000.00',
      reportLines: '2/170000.00',
      'reportLines.mdr': '/1190.00',
      'reportLines.net': '/168810.00',
      matchedPayins: '1/150000.00',
      ledgerRefunds: '0/0.00',
      reportRefunds: '0/0.00',
      matchedRefunds: '0/0.00',
      statementCredits: '1/168810.00',
      statementDebits: '0/0.00',
      breaks: '1/',
      suspense: '/-19860.00',
      reportIngested: 'true/',
      statementIngested: 'true/',
    });
    expect(summary('sandbox')).toMatchObject({
      ledgerPayins: '0/0.00',
      reportLines: '0/0.00',
      statementCredits: '1/168810.00',
      breaks: '1/',
      suspense: '/0.00',
      reportIngested: 'false/',
      statementIngested: 'true/',
    });
    const [breakRow, unexpected] = rows.filter((r) => r.record === 'break');
    expect(breakRow).toMatchObject({
      acquirer: 'qris',
      rail: 'snap',
      code: 'missing_in_ledger',
      side: 'report',
      subject: 'report_line',
      reference: "'=1+2",
      batch_id: 'STL-1',
      suspense: '-19860.00',
      actual_amount: '20000.00',
      actual_date: today,
      status: 'open',
      owner: '',
      resolution: '',
      detail: 'line 2: no pay-in of the day has RRN =1+2',
    });
    expect(unexpected).toMatchObject({
      acquirer: 'sandbox',
      code: 'unexpected',
      subject: 'statement_line',
      reference: 'STL-1',
      actual_amount: '168810.00',
      status: 'open',
    });
    expect(rows.some((r) => r.reference === rrn)).toBe(false); // the matched pay-in is no break

    // Asked again while the day stands: the same file.
    expect(await exports.request({ date: today, kind: 'reconciliation' })).toMatchObject({
      id: e.id,
      status: 'ready',
    });

    // Resolved: the file is stale, still served as of its snapshot; asked again, a new one shows the resolution.
    expect((await desk.resolve(open[0].id, '@SUM(1) the acquirer claws it back', 'operator:7')).status).toBe(
      'resolved',
    );
    const stale = await exports.get(e.id);
    expect(stale).toMatchObject({ status: 'stale', openBreaks: 2 });
    expect((await download(stale)).body).toBe(body);
    const second = await built(today);
    expect(second.e.id).not.toBe(e.id);
    expect(second.e).toMatchObject({ status: 'ready', entries: 2, openBreaks: 1, rows: rows.length });
    expect(second.rows.find((r) => r.record === 'break' && r.acquirer === 'qris')).toMatchObject({
      status: 'resolved',
      owner: 'operator:7',
      resolution: "'@SUM(1) the acquirer claws it back",
    });

    // Run again, nothing else changed: stale all the same (its time is another).
    await qris.run(today, 'test');
    expect((await exports.get(second.e.id)).status).toBe('stale');
    const third = await built(today);
    expect(third.e.status).toBe('ready');

    // A break given an owner: stale.
    await desk.assign(open[0].id, 'finance@example.id');
    expect((await exports.get(third.e.id)).status).toBe('stale');
  }, 60_000);

  it('a day with no run: the header alone, 0 rows, 0 runs, 0 open breaks', async () => {
    const date = jakartaDay(3);
    const { e, body, rows } = await built(date);
    expect(body).toBe(`${DAY_REPORTS_CSV_HEADER.join(',')}\n`);
    expect(rows).toEqual([]);
    expect(e).toMatchObject({ rows: 0, entries: 0, openBreaks: 0, balanced: null });
    const row = await prisma.reconExport.findUniqueOrThrow({ where: { id: e.id } });
    expect(row).toMatchObject({ merchantId: null, kind: 'reconciliation', rowCount: 0, entryCount: 0 });
    // Still current when asked again: the same file.
    expect(await exports.request({ date, kind: 'reconciliation' })).toMatchObject({ id: e.id, status: 'ready' });
  }, 40_000);
});
