import { randomUUID } from 'node:crypto';
import { createDashboardUser, createMerchant, fundMerchant } from '@pay/testing';
import {
  type DashboardBrowser,
  seriousViolations,
  signInToDashboard,
  startDashboardBrowser,
} from './dashboard-browser';

/**
 * The merchant dashboard's batch payout from a CSV (issue 44) in a real browser against the real
 * processes: the file read, each row's problem shown before anything is sent, the batch sent and
 * followed until every row is final, the balance down by the rows paid.
 */
(process.env.E2E_BUS_TRANSPORT === 'kafka' ? describe.skip : describe)(
  'dashboard batch payout from a CSV (processes, Chromium)',
  () => {
    let d: DashboardBrowser;

    beforeAll(async () => {
      d = await startDashboardBrowser('dbat', {
        snapSimulator: { delayMs: 200 },
        env: { PAYOUT_POLL_INTERVAL_MS: '200' },
      });
    }, 120_000);
    afterAll(() => d?.stop());

    it("shows each row's problem, sends the good rows and follows them until final", async () => {
      const { prisma, browser, dashboardUrl } = d;
      const { merchant } = await createMerchant(prisma);
      await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
      const user = await createDashboardUser(prisma, { merchantId: merchant.id });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));

      await signInToDashboard(page, dashboardUrl, user);
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
      expect(await seriousViolations(page)).toEqual([]);

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
