import {
  createPgPool,
  createPrismaClient,
  DeliveryHistoryRepository,
  OverviewRepository,
  type PrismaClient,
  type SqlClient,
  type SqlQuery,
  sqlClient,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import { createDisbursement, createMerchant, fundMerchant, insertPayin } from '@pay/testing';
import type { Pool } from 'pg';

describe('dashboard reads: OverviewRepository, DeliveryHistoryRepository (real Postgres)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let repo: OverviewRepository;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string);
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
    repo = new OverviewRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await prisma.$disconnect();
  });

  // 2026-11-26 00:30 in Asia/Jakarta (UTC+7): the Jakarta day has begun, the UTC one has not.
  const now = new Date('2026-11-25T17:30:00Z');

  async function paidAt(merchantId: number, amount: bigint, at: string, status = 'success') {
    const id = await insertPayin(prisma, merchantId, amount, 0n);
    await prisma.payin.update({ where: { id }, data: { successAt: new Date(at), status } });
  }

  async function payoutAt(
    merchantId: number,
    amount: bigint,
    at: string,
    outcome: 'pending' | 'success' | 'failed' | 'funding',
  ) {
    const { disbursement } = await createDisbursement(prisma, merchantId, {
      amount,
      fee: 0n,
      outcome,
      applyRefund: false,
    });
    await prisma.disbursement.update({ where: { id: disbursement.id }, data: { createdAt: new Date(at) } });
  }

  it('sums successful pay-ins by the Jakarta day of their success and live payouts by the day of their creation, 30 days with zeros', async () => {
    const { merchant } = await createMerchant(prisma);
    const other = await createMerchant(prisma);
    // Funded through the ledger's real path; the funding pay-ins were paid long before the window.
    const funding = await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    await prisma.payin.updateMany({
      where: { id: { in: funding } },
      data: { successAt: new Date('2026-01-01T00:00:00Z') },
    });
    await paidAt(merchant.id, 1_000_00n, '2026-11-25T17:00:00Z'); // 26 Nov 00:00 WIB: today
    await paidAt(merchant.id, 2_500_50n, '2026-11-25T17:29:00Z'); // today
    await paidAt(merchant.id, 7_000_00n, '2026-11-25T16:59:59Z'); // 25 Nov 23:59:59 WIB: yesterday
    await paidAt(merchant.id, 9_999_00n, '2026-11-25T17:10:00Z', 'failed'); // not paid
    await paidAt(merchant.id, 3_000_00n, '2026-10-27T17:00:00Z'); // 28 Oct 00:00 WIB: the first of the 30 days
    await paidAt(merchant.id, 4_000_00n, '2026-10-27T16:59:59Z'); // 27 Oct: out of the window
    await paidAt(other.merchant.id, 5_000_00n, '2026-11-25T17:05:00Z'); // another merchant
    await payoutAt(merchant.id, 150_000_00n, '2026-11-25T17:01:00Z', 'success');
    await payoutAt(merchant.id, 20_000_00n, '2026-11-25T17:02:00Z', 'pending');
    await payoutAt(merchant.id, 30_000_00n, '2026-11-25T17:03:00Z', 'failed'); // refunded: not paid out
    await payoutAt(merchant.id, 40_000_00n, '2026-11-24T10:00:00Z', 'funding'); // 24 Nov 17:00 WIB

    const days = await repo.daily(merchant.id, now, 30);
    expect(days).toHaveLength(30);
    expect(days[0].date).toBe('2026-10-28');
    expect(days[29]).toEqual({
      date: '2026-11-26',
      payinAmount: 3_500_50n,
      payinCount: 2,
      payoutAmount: 170_000_00n,
      payoutCount: 2,
    });
    expect(days[28]).toEqual({
      date: '2026-11-25',
      payinAmount: 7_000_00n,
      payinCount: 1,
      payoutAmount: 0n,
      payoutCount: 0,
    });
    expect(days[27]).toEqual({
      date: '2026-11-24',
      payinAmount: 0n,
      payinCount: 0,
      payoutAmount: 40_000_00n,
      payoutCount: 1,
    });
    expect(days[0]).toEqual({
      date: '2026-10-28',
      payinAmount: 3_000_00n,
      payinCount: 1,
      payoutAmount: 0n,
      payoutCount: 0,
    });
    expect(days.slice(1, 27).every((d) => d.payinCount === 0 && d.payoutCount === 0 && d.payinAmount === 0n)).toBe(
      true,
    );
    expect(new Set(days.map((d) => d.date)).size).toBe(30);
  });

  it('reads each side through an index of the window, however long the history', async () => {
    const { merchant } = await createMerchant(prisma);
    await prisma.$executeRaw`
      INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, success_at, created_at)
      SELECT gen_random_uuid(), ${merchant.id}, 'OV-' || g, 'QROV' || md5(random()::text), 100000, 0, 0, 0, CASE WHEN g % 3 = 0 THEN 'failed' ELSE 'success' END,
             now() - make_interval(mins => g * 90), now() - make_interval(mins => g * 90)
        FROM generate_series(1, 5000) g`; // a year of history, a tenth of it in the window
    await pool.query('VACUUM ANALYZE payins');
    await pool.query('ANALYZE disbursements');
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off'); // a plan that can only scan sequentially still shows one
      const from = new Date(Date.now() - 30 * 86_400_000);
      const explain = async (text: string) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, [merchant.id, from, new Date()])).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const payins = await explain(
        `SELECT (success_at AT TIME ZONE 'Asia/Jakarta')::date, sum(amount), count(*) FROM payins WHERE merchant_id = $1 AND status = 'success' AND success_at >= $2 AND success_at < $3 GROUP BY 1`,
      );
      // Which index the planner picks depends on the shared test database's statistics; what must
      // hold is that some index serves the window (seq scans are off, so one shows only when none can).
      expect(payins).not.toMatch(/Seq Scan/);
      expect(payins).toMatch(/Index (Only )?Scan using payins_/);
      const payouts = await explain(
        `SELECT (created_at AT TIME ZONE 'Asia/Jakarta')::date, sum(amount), count(*) FROM disbursements WHERE merchant_id = $1 AND status IN ('pending', 'funding', 'success') AND created_at >= $2 AND created_at < $3 GROUP BY 1`,
      );
      expect(payouts).not.toMatch(/Seq Scan/);
      expect(payouts).toMatch(/Index (Only )?Scan using disbursements_/);
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
    const days = await repo.daily(merchant.id, new Date(), 30);
    const inWindow = await prisma.payin.count({
      where: {
        merchantId: merchant.id,
        status: 'success',
        successAt: { gte: new Date(Date.parse(`${days[0].date}T00:00:00+07:00`)) },
      },
    });
    expect(days.reduce((n, d) => n + d.payinCount, 0)).toBe(inWindow);
    expect(inWindow).toBeGreaterThan(300);
  });

  it('is all zeros for a merchant with nothing', async () => {
    const { merchant } = await createMerchant(prisma);
    const days = await repo.daily(merchant.id, new Date(), 30);
    expect(
      days.every((d) => d.payinAmount === 0n && d.payoutAmount === 0n && d.payinCount === 0 && d.payoutCount === 0),
    ).toBe(true);
  });

  it("reads a transaction's deliveries and the recent ones through indexes, never a scan of the table", async () => {
    const { merchant } = await createMerchant(prisma);
    const deliveries = new WebhookDeliveryRepository(pool);
    const ids = await fundMerchant(prisma, merchant.id, [1_000_00n]);
    await prisma.$executeRaw`
      INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, payin_id, url, body, status, created_at, updated_at)
      SELECT gen_random_uuid(), 'bulk-' || md5(random()::text), 'payin.succeeded', ${merchant.id}, CASE WHEN g = 1 THEN ${ids[0]}::uuid END, 'https://93.184.216.34/cb', '{}',
             (ARRAY['pending', 'delivering', 'delivered', 'failed', 'dead'])[1 + g % 5], now() - make_interval(secs => g), now()
        FROM generate_series(1, 3000) g`;
    const newest = await deliveries.create(
      {
        eventId: `evt-${Date.now()}`,
        eventType: 'payin.succeeded',
        merchantId: merchant.id,
        disbursementId: null,
        payinId: ids[0],
        url: 'https://93.184.216.34/cb',
        body: '{}',
      },
      new Date(),
    );
    await pool.query('ANALYZE webhook_deliveries');
    const plans: string[] = [];
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const db = sqlClient(pool);
      // Runs each statement, and keeps its plan on the connection where seq scans are discouraged.
      const explaining: SqlClient = {
        query: async <T>(q: SqlQuery) => {
          plans.push(
            (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q.text}`, q.values)).rows
              .map((r) => r['QUERY PLAN'])
              .join('\n'),
          );
          return db.query<T>(q);
        },
        execute: (q: SqlQuery) => db.execute(q),
      };
      const history = new DeliveryHistoryRepository(explaining);
      const recent = await history.recent(merchant.id, 20);
      expect(recent.map((d) => d.id)[0]).toBe(newest.id);
      expect(recent).toHaveLength(20);
      expect(plans[0]).not.toMatch(/Seq Scan on webhook_deliveries/);
      const own = await history.ofTransaction(merchant.id, { payinId: ids[0] });
      expect(own.map((d) => d.id)).toContain(newest.id);
      expect(own).toHaveLength(2);
      expect(plans[1]).not.toMatch(/Seq Scan on webhook_deliveries/);
      const other = await createMerchant(prisma);
      expect(await history.ofTransaction(other.merchant.id, { payinId: ids[0] })).toEqual([]);
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});
