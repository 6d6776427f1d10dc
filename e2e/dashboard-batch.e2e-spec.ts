import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createDashboardUser, createMerchant, fundMerchant, repoRoot } from '@pay/testing';
import { freePort, LocalStack, testStackBus, testS3 } from '@pay/devstack';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * The merchant dashboard's batch payout from a CSV (issue 44) in a real browser against the real
 * processes: the file read, each row's problem shown before anything is sent, the batch sent and
 * followed until every row is final, the balance down by the rows paid.
 */
(process.env.E2E_BUS_TRANSPORT === 'kafka' ? describe.skip : describe)(
  'dashboard batch payout from a CSV (processes, Chromium)',
  () => {
    let stack: LocalStack;
    let prisma: PrismaClient;
    let browser: Browser;
    let dashboardUrl: string;

    beforeAll(async () => {
      const gatewayPort = await freePort();
      dashboardUrl = `http://127.0.0.1:${gatewayPort}/dashboard/`;
      stack = await LocalStack.start({
        databaseUrl: process.env.DATABASE_URL as string,
        redisUrl: process.env.TEST_REDIS_URL as string,
        busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}dbat:`,
        bus: testStackBus(),
        s3: testS3(),
        ports: { gateway: gatewayPort },
        logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}dbat`),
        snapSimulator: { delayMs: 200 },
        env: { BUS_LEASE_TTL_MS: '2000', PAYOUT_POLL_INTERVAL_MS: '200', DASHBOARD_PUBLIC_URL: dashboardUrl },
      });
      prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await stack?.stop();
      await prisma?.$disconnect();
    });

    it("shows each row's problem, sends the good rows and follows them until final", async () => {
      const { merchant } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
      const user = await createDashboardUser(prisma, { merchantId: merchant.id });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));

      await page.goto(dashboardUrl);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Payouts', exact: true }).click();
      await page.getByRole('link', { name: 'Upload a batch (CSV)' }).click();

      const id = randomUUID().slice(0, 8);
      const csv = [
        'merchantTrxId,bankCode,accountNo,accountName,amount',
        `CSV-${id}-1,BCA,1234567890,,150000`,
        `CSV-${id}-2,XYZ,1234567890,,150000`,
        `CSV-${id}-3,BNI,5550001111,,"10,000.50"`,
        `CSV-${id}-4,BRI,1234567890,,5`,
        `CSV-${id}-5,BCA,0000000404,,20000`,
      ].join('\n');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

      const preview = page.getByTestId('batch-preview');
      await preview.waitFor();
      expect(await page.getByTestId('batch-summary').textContent()).toMatch(
        /^5 rows: 3 ready to send \(.+\), 2 with a problem\.$/,
      );
      const results = await preview
        .locator('[data-result]')
        .evaluateAll((badges) => badges.map((b) => b.getAttribute('data-result')));
      expect(results).toEqual(['accepted', 'refused', 'accepted', 'refused', 'accepted']);
      await expect(preview.locator('tbody tr').nth(1).textContent()).resolves.toContain('UNKNOWN_BANK_CODE');
      await expect(preview.locator('tbody tr').nth(3).textContent()).resolves.toContain('amount: must be between');
      expect(await prisma.disbursementBatch.count({ where: { merchantId: merchant.id } })).toBe(0);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
        [],
      );

      await page.getByRole('button', { name: 'Send 3 payouts' }).click();
      const progress = page.getByTestId('batch-progress');
      await progress.waitFor();
      await page.locator('[data-testid="batch-progress"][data-status="completed"]').waitFor({ timeout: 60_000 });
      const text = await progress.textContent();
      // The bank refuses the unknown account after sending; the two others are paid
      expect(text).toContain('2 paid, 0 failed, 3 refused');
      expect(text).toContain('ACCOUNT_NOT_FOUND');
      const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } });
      expect(balance.available).toBe(1_000_000_00n - (150_000_00n + 10_000_50n + 2n * 2_500_00n));
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  },
);
