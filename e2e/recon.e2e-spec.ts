import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { formatJakartaDateTime, parseAmount } from '@pay/domain';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createDisbursement, createMerchant, fundMerchant, repoRoot, waitFor } from '@pay/testing';
import { checkSignatures, LocalStack, SIGNATURES_ENFORCED, testStackBus, testS3 } from '@pay/devstack';
import { parse } from 'csv-parse/sync';

// Short enough to watch a link expire, long enough that a fresh one is fetched well in time on a loaded machine.
const URL_TTL_SECONDS = 5;

/**
 * The recon export through the real processes: gateway, workers (BullMQ), Postgres, and S3Proxy,
 * which checks signatures and expiry the way S3 and MinIO do, so the download links are tested
 * for what they refuse as well as what they serve.
 */
describe('recon export end to end (processes, real Postgres, Redis and S3 server)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  const today = formatJakartaDateTime(new Date()).slice(0, 10);

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}rec:`,
      bus: testStackBus(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}rec`),
      s3: testS3(),
      env: { BUS_LEASE_TTL_MS: '2000', RECON_URL_TTL_SECONDS: String(URL_TTL_SECONDS) },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const api = async (path: string, token: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  async function code(token: string, amount: number, pay?: 'success' | 'failed') {
    const merchantTrxId = `ORD-${randomUUID().slice(0, 12)}`;
    expect((await api('qris/generate', token, { merchantTrxId, amount })).status).toBe(200);
    if (pay) expect((await api('qris/sandbox/pay', token, { merchantTrxId, status: pay })).status).toBe(200);
    return merchantTrxId;
  }
  const recon = (token: string, date = today, type?: string) => api('reconFile', token, { date, type });
  async function ready(token: string, date = today, type?: string) {
    let last;
    await waitFor(
      async () => (last = await recon(token, date, type)).body.message === 'Export ready',
      20_000,
      'export ready',
    );
    return (last as unknown as { body: { data: { jobId: string; download: string } } }).body.data;
  }
  async function download(url: string): Promise<Record<string, string>[]> {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return parse(await res.text(), { columns: true, skip_empty_lines: true });
  }

  it("queues, answers the same job while it runs, then gives a download whose CSV is exactly the merchant's pay-ins of the date", async () => {
    const a = await createMerchant(prisma, { name: 'Toko "Maju", Jaya\nCabang Kemang' });
    const b = await createMerchant(prisma, { name: 'Warung B' });
    const paid = [
      await code(a.token, 50000, 'success'),
      await code(a.token, 125000.75, 'success'),
      await code(a.token, 20000, 'success'),
    ];
    const failed = await code(a.token, 30000, 'failed');
    const unpaid = await code(a.token, 40000);
    const other = await code(b.token, 77000, 'success');
    await waitFor(
      async () =>
        (await prisma.payin.count({ where: { merchantId: a.merchant.id, status: 'success', ledgerEventId: null } })) ===
        0,
      15_000,
      'ledger',
    );

    // With the workers down the job cannot finish: the same request answers the same queued job.
    await stack.kill('workers');
    const first = await recon(a.token);
    expect(first).toEqual({
      status: 200,
      body: {
        logId: expect.any(String),
        status: true,
        message: 'Export job queued',
        data: { jobId: expect.any(String), note: expect.stringContaining('Send the same request again') },
      },
    });
    const again = await recon(a.token);
    expect(again.body).toMatchObject({ message: 'Export job queued', data: { jobId: first.body.data.jobId } });
    const otherJob = await recon(b.token);
    expect(otherJob.body.data.jobId).not.toBe(first.body.data.jobId);
    await stack.startService('workers');

    const done = await ready(a.token);
    expect(done.jobId).toBe(first.body.data.jobId);
    expect(done.download).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/recon\/recon\/.+X-Amz-Signature=/);
    const rows = await download(done.download);
    expect(Object.keys(rows[0])).toEqual([
      'merchantTrxId',
      'platformTrxId',
      'merchantName',
      'status',
      'amount',
      'fee',
      'netAmount',
      'feePercentage',
      'feeFixed',
      'createdAt',
      'success_at',
      'rrn',
      'issuer',
      'nmid',
      'settlementId',
    ]);
    expect(rows.map((r) => r.merchantTrxId).sort()).toEqual([...paid, failed, unpaid].sort());
    expect(rows.every((r) => r.merchantName === 'Toko "Maju", Jaya\nCabang Kemang')).toBe(true);
    const byId = Object.fromEntries(rows.map((r) => [r.merchantTrxId, r]));
    expect(byId[paid[1]]).toMatchObject({
      status: 'success',
      amount: '125000.75',
      fee: '1025.01',
      netAmount: '123975.74',
      feePercentage: '0.7',
      feeFixed: '150',
      nmid: a.merchant.nmid,
    });
    expect(byId[paid[1]].rrn).toMatch(/^\d{12}$/);
    expect(byId[paid[1]].success_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(byId[failed].status).toBe('failed');
    expect(byId[unpaid]).toMatchObject({ status: 'pending', success_at: '', rrn: '' });

    // Totals reconcile to the pay-ins and to the ledger.
    const sum = (field: 'amount' | 'netAmount') =>
      rows.filter((r) => r.status === 'success').reduce((s, r) => s + Math.round(Number(r[field]) * 100), 0);
    const payins = await prisma.payin.findMany({ where: { merchantId: a.merchant.id, status: 'success' } });
    expect(sum('amount')).toBe(Number(payins.reduce((s, p) => s + p.amount, 0n)));
    const recorded = await prisma.ledgerEvent.aggregate({
      where: { merchantId: a.merchant.id, type: 'payin.recorded' },
      _sum: { pendingDelta: true },
    });
    expect(sum('netAmount')).toBe(Number(recorded._sum.pendingDelta));
    const job = await prisma.reconExport.findUniqueOrThrow({ where: { id: done.jobId } });
    expect(job).toMatchObject({ status: 'ready', rowCount: 5, net: recorded._sum.pendingDelta });

    // The other merchant's file has its own rows only.
    const bRows = await download((await ready(b.token)).download);
    expect(bRows.map((r) => r.merchantTrxId)).toEqual([other]);
  });

  it('the payouts and the balance-movements files of a day: their own jobs, names and rows; an unknown type is refused', async () => {
    const m = await createMerchant(prisma, { name: 'Toko Berkas' });
    await fundMerchant(prisma, m.merchant.id, [1_000_000_00n]);
    const { disbursement: ok } = await createDisbursement(prisma, m.merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
    });
    const { disbursement: failed } = await createDisbursement(prisma, m.merchant.id, {
      amount: 50_000_00n,
      fee: 2_500_00n,
      outcome: 'failed',
    });

    const bogus = await recon(m.token, today, 'refunds');
    expect(bogus).toMatchObject({
      status: 400,
      body: { status: false, code: 'VALIDATION_ERROR', message: expect.stringContaining('payins, payouts, movements') },
    });

    const payouts = await ready(m.token, today, 'payouts');
    expect(payouts.download).toMatch(/\/recon\/recon\/\d+\/[\d-]+\/payouts-[0-9a-f-]+\.csv\?/);
    expect(payouts.download).toContain(encodeURIComponent(`payouts-${m.merchant.id}-${today}.csv`));
    const rows = await download(payouts.download);
    expect(rows.map((r) => [r.merchantTrxId, r.status, r.totalAmount, r.failureCode, r.failureReason])).toEqual([
      [ok.merchantTrxId, 'success', '102500', '', ''],
      [failed.merchantTrxId, 'failed', '50000', 'REJECTED_BY_BANK', 'Rejected by the beneficiary bank'],
    ]);

    const movements = await ready(m.token, today, 'movements');
    expect(movements.jobId).not.toBe(payouts.jobId);
    const moves = await download(movements.download);
    expect(moves.map((r) => r.type)).toEqual([
      'payin.recorded',
      'settlement.credited',
      'payout.debited',
      'payout.debited',
      'payout.refunded',
    ]);
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: m.merchant.id } });
    expect(parseAmount(moves[moves.length - 1].availableAfter)).toBe(balance.available);

    // The pay-ins file of the day is still its own (the specification's recon file, unchanged).
    const payins = await ready(m.token);
    expect(payins.jobId).not.toBe(payouts.jobId);
    expect(Object.keys((await download(payins.download))[0] ?? { merchantTrxId: '' })).toContain('merchantTrxId');
  });

  it('rebuilds the file when a pay-in of that date changed after it was built', async () => {
    const m = await createMerchant(prisma);
    const unpaid = await code(m.token, 40000);
    const first = await ready(m.token);
    expect((await download(first.download)).find((r) => r.merchantTrxId === unpaid)?.status).toBe('pending');

    await api('qris/sandbox/pay', m.token, { merchantTrxId: unpaid });
    const requeued = await recon(m.token);
    expect(requeued.body).toMatchObject({ message: 'Export job queued' });
    expect(requeued.body.data.jobId).not.toBe(first.jobId);
    const second = await ready(m.token);
    expect((await download(second.download)).find((r) => r.merchantTrxId === unpaid)?.status).toBe('success');
  });

  it.each([
    ['22-11-2026', 'date: must be a date in the format YYYY-MM-DD'],
    ['2026-02-30', 'date: 2026-02-30 is not a real date'],
    ['2999-01-01', 'date: 2999-01-01 is in the future'],
  ])('refuses the date %s with a validation error naming it, and queues nothing', async (date, message) => {
    const m = await createMerchant(prisma);
    const res = await recon(m.token, date);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(message);
    expect(await prisma.reconExport.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it('a failed export is reported once with a clear error, then a new request starts a new job', async () => {
    const m = await createMerchant(prisma);
    await prisma.reconExport.create({
      data: {
        id: randomUUID(),
        merchantId: m.merchant.id,
        date: new Date(`${today}T00:00:00Z`),
        status: 'failed',
        error: 'S3 unavailable',
      },
    });
    const failed = await recon(m.token);
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({
      status: false,
      code: 'RECON_EXPORT_FAILED',
      message: `The export for ${today} failed; send the request again to start a new export`,
    });
    const retried = await recon(m.token);
    expect(retried.body.message).toBe('Export job queued');
    await ready(m.token);
  });

  describe('download links (S3Proxy checks them as S3 does)', () => {
    /** A merchant with one paid pay-in today and its ready export's link. */
    async function exported() {
      const m = await createMerchant(prisma);
      const trx = await code(m.token, 10000, 'success');
      return { m, trx, url: new URL((await ready(m.token)).download) };
    }
    const get = async (url: URL | string) => {
      const res = await fetch(url);
      return { status: res.status, body: await res.text() };
    };
    const edited = (url: URL, edit: (u: URL) => void) => {
      const copy = new URL(url);
      edit(copy);
      return copy;
    };
    const refusedWithout = (res: { status: number; body: string }, code: string, trx: string) => {
      expect(res.status).toBe(403);
      expect(res.body).toContain(`<Code>${code}</Code>`);
      expect(res.body).not.toContain(trx);
      expect(res.body).not.toContain('merchantTrxId');
    };

    it("the link as given downloads the file; a forged signature, another merchant's key, a longer expiry or a moved date are refused", async () => {
      const a = await exported();
      const b = await exported();
      const ok = await get(a.url);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain(a.trx);

      const signature = a.url.searchParams.get('X-Amz-Signature') as string;
      const forged = edited(a.url, (u) =>
        u.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`),
      );
      refusedWithout(await get(forged), 'SignatureDoesNotMatch', a.trx);

      // A's signature on the path of B's file: a merchant cannot reach another's export by editing the link.
      const otherKey = edited(a.url, (u) => (u.pathname = b.url.pathname));
      expect(otherKey.pathname).toMatch(new RegExp(`^/recon/recon/${b.m.merchant.id}/`));
      refusedWithout(await get(otherKey), 'SignatureDoesNotMatch', b.trx);

      refusedWithout(
        await get(edited(a.url, (u) => u.searchParams.set('X-Amz-Expires', '604800'))),
        'SignatureDoesNotMatch',
        a.trx,
      );
      // Signed an hour later, as if to stretch the link's life.
      const signedAt = (a.url.searchParams.get('X-Amz-Date') as string).replace(
        /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/,
        '$1-$2-$3T$4:$5:$6Z',
      );
      const later = new Date(Date.parse(signedAt) + 3_600_000).toISOString().replace(/[-:]|\.\d{3}/g, '');
      expect(later).toMatch(/^\d{8}T\d{6}Z$/);
      refusedWithout(
        await get(edited(a.url, (u) => u.searchParams.set('X-Amz-Date', later))),
        'SignatureDoesNotMatch',
        a.trx,
      );
    });

    it(`a link is refused once its ${URL_TTL_SECONDS} s are up; asking again gives a fresh one that works`, async () => {
      const { m, trx, url } = await exported();
      expect((await get(url)).status).toBe(200);
      await new Promise((r) => setTimeout(r, (URL_TTL_SECONDS + 2) * 1000));
      const late = await get(url);
      refusedWithout(late, 'AccessDenied', trx);
      expect(late.body).toContain('Request has expired');

      const fresh = await get((await ready(m.token)).download);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toContain(trx);
    });

    it('without a signature nothing is served: neither the bucket listing nor the file', async () => {
      const { trx, url } = await exported();
      const endpoint = stack.s3.endpoint;
      for (const listing of [`${endpoint}/recon`, `${endpoint}/recon?list-type=2`, `${endpoint}/`]) {
        const res = await get(listing);
        refusedWithout(res, 'AccessDenied', trx);
        expect(res.body).not.toContain('recon/');
      }
      refusedWithout(await get(`${endpoint}${url.pathname}`), 'AccessDenied', trx);
    });

    it('an unsigned PUT or DELETE of the file a link points at is refused; the next link serves the file as exported', async () => {
      const { m, trx, url } = await exported();
      const object = `${stack.s3.endpoint}${url.pathname}`;
      const forged = `merchantTrxId,amount\nFORGED-${trx},1\n`;
      for (const target of [object, url.toString()])
        expect((await fetch(target, { method: 'PUT', body: forged })).status).toBe(403);
      expect((await fetch(object, { method: 'DELETE' })).status).toBe(403);
      const fresh = await get((await ready(m.token)).download);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toContain(trx);
      expect(fresh.body).not.toContain('FORGED');
    });

    it("the run's store refuses what the local runner's and the integration specs' refuse (checkSignatures)", async () => {
      expect(await checkSignatures(stack.s3, 'e2e-signature-checks')).toEqual(SIGNATURES_ENFORCED);
    });
  });
});
