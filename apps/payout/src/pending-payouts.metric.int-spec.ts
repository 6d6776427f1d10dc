import { randomUUID } from 'node:crypto';
import { createPgPool, createPrismaClient, dropDatabase, PayoutRepository, type PrismaClient } from '@pay/persistence';
import { pendingPayoutsMetric } from '@pay/platform';
import { createMerchant, createTestDatabase } from '@pay/testing';
import type { Pool } from 'pg';
import { Registry } from 'prom-client';

describe('disbursements_pending metrics (real Postgres)', () => {
  // Its own database: the gauges count every pending disbursement, which must not be other suites'.
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let merchantId: number;

  beforeAll(async () => {
    url = await createTestDatabase('pay_pending');
    prisma = createPrismaClient(url, 2);
    pool = createPgPool(url, 2);
    merchantId = (await createMerchant(prisma)).merchant.id;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  /** A disbursement in `status`, its transfer accepted `ageSeconds` ago. */
  async function disbursement(status: string, ageSeconds: number): Promise<string> {
    const id = randomUUID();
    const platformTrxId = `DSB${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const merchantTrxId = `INV-${id.slice(0, 8)}`;
    await pool.query(
      `INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
       VALUES ($1, $2, $3, 'BCA', '1234567890', 'BUDI SANTOSO', 10000000, 250000, now() + interval '1 hour')`,
      [platformTrxId, merchantId, merchantTrxId],
    );
    await pool.query(
      `INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, success_at, next_check_at, debited_at, created_at)
       VALUES ($1::uuid, $2, $3, $4, 'BCA', '1234567890', 'BUDI SANTOSO', 10000000, 250000, 'https://merchant.example/cb', $5, CASE WHEN $5 = 'success' THEN now() END, now(), now(), now() - make_interval(secs => $6::float8))`,
      [id, merchantId, merchantTrxId, platformTrxId, status, ageSeconds],
    );
    return id;
  }

  it('counts the pending disbursements and the age of the oldest, not the settled ones, read at most once per cacheMs', async () => {
    const registry = new Registry();
    const warnings: object[] = [];
    pendingPayoutsMetric(registry, new PayoutRepository(pool), {
      logger: { warn: (obj) => void warnings.push(obj) },
      cacheMs: 300,
    });
    const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;

    expect(await value('disbursements_pending')).toBe(0);
    expect(await value('disbursements_pending_oldest_age_seconds')).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 350));

    const oldest = await disbursement('pending', 1_800);
    await disbursement('pending', 20);
    await disbursement('success', 7_200);
    await disbursement('failed', 7_200);
    expect(await value('disbursements_pending')).toBe(2);
    const age = await value('disbursements_pending_oldest_age_seconds');
    expect(age).toBeGreaterThanOrEqual(1_800);
    expect(age).toBeLessThan(1_810);

    // Settled meanwhile: a scrape inside cacheMs answers from the last read, the next one reads again.
    await pool.query(`UPDATE disbursements SET status = 'success', success_at = now() WHERE id = $1::uuid`, [oldest]);
    expect(await value('disbursements_pending')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await value('disbursements_pending')).toBe(1);
    expect(await value('disbursements_pending_oldest_age_seconds')).toBeLessThan(30);
    expect(warnings).toEqual([]);
  });

  it('keeps the last values and warns when the database cannot be asked', async () => {
    const registry = new Registry();
    const warnings: object[] = [];
    await disbursement('pending', 60);
    const broken = createPgPool(url, 1);
    pendingPayoutsMetric(registry, new PayoutRepository(broken), {
      logger: { warn: (obj) => void warnings.push(obj) },
      cacheMs: 0,
    });
    const value = async () => (await registry.getSingleMetric('disbursements_pending')?.get())?.values[0]?.value;
    const before = await value();
    expect(before).toBeGreaterThanOrEqual(1);
    await broken.end();
    expect(await value()).toBe(before);
    expect(warnings).toHaveLength(1);
  });
});
