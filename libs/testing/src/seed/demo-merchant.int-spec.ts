import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import { insertPayin } from '../fixtures';
import { DEMO_MERCHANT_NAME, seedDemoMerchant } from './demo-merchant';

/** The local runner's demo merchant across starts: one active local runner token, never a pile of them. */
describe('the demo merchant seed', () => {
  let prisma: PrismaClient;
  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
  });
  afterAll(() => prisma.$disconnect());

  it('a second start revokes the first start token and issues one new; other tokens are left alone', async () => {
    const admin = new MerchantAdmin(prisma);
    const merchant = await admin.create({ name: DEMO_MERCHANT_NAME });
    // Already seeded with pay-ins: the seed only issues the token (no gateway needed).
    await insertPayin(prisma, merchant.id, 5_000_000n, 50_000n);
    const own = await admin.issueToken(merchant.id, 'shop backend');
    try {
      const first = await seedDemoMerchant(prisma, 'http://127.0.0.1:1');
      const second = await seedDemoMerchant(prisma, 'http://127.0.0.1:1');
      expect(second.merchantId).toBe(merchant.id);
      expect(second.token).not.toBe(first.token);
      const tokens = await admin.listTokens(merchant.id);
      const active = tokens.filter((t) => !t.revokedAt).map((t) => t.label?.replace(/ \d{4}-.*$/, ''));
      expect(active.sort()).toEqual(['local runner', 'shop backend']);
      expect(tokens.filter((t) => t.revokedAt)).toHaveLength(1);
      expect(tokens.some((t) => t.id === own.id && !t.revokedAt)).toBe(true);
    } finally {
      await prisma.merchant.update({ where: { id: merchant.id }, data: { name: `Demo seed test ${merchant.id}` } });
    }
  });
});
