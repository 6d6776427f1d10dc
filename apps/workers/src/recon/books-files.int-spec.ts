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
import { S3Proxy } from '@pay/devstack';
import { createDisbursement, createMerchant, fundMerchant, waitFor } from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';
import { ReconExportQueue } from './recon-export.queue';

type Row = Record<string, string>;
const sen = (rupiah: string) => (rupiah === '' ? 0n : parseAmount(rupiah));
const jakartaToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

/**
 * The finance exports end to end (issue 43): requested through the back office's use case, built
 * by the workers' export queue into a signing S3, downloaded from the presigned URL. Other suites
 * write to the same books meanwhile: a file is judged against the rows it names and the totals of
 * its own snapshot, and a trial balance compared when no entry was booked in between.
 */
describe('the books exports: journal and trial balance through the export queue (real Postgres, Redis, S3)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let s3: S3Proxy;
  let queue: ReconExportQueue;
  let producer: ReconExportProducer;
  let exports: BooksExports;
  const logger = createLogger('workers-test', 'fatal');

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    s3 = await S3Proxy.start();
    const store = new ObjectStore(storageConfigSchema.parse(s3.env), 30_000);
    await store.ensureBucket();
    const connection = { url: process.env.TEST_REDIS_URL as string };
    const prefix = `${process.env.TEST_REDIS_PREFIX}books-${randomUUID().slice(0, 8)}`;
    const repository = new ReconExportRepository(prisma);
    queue = new ReconExportQueue(repository, pool, store, logger, { connection, prefix });
    producer = new ReconExportProducer(connection, prefix, logger);
    exports = new BooksExports(repository, store, producer);
    await queue.start();
  });
  afterAll(async () => {
    await queue.stop();
    await producer.close();
    await prisma.$disconnect();
    await pool.end();
    await s3.close();
  });

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
