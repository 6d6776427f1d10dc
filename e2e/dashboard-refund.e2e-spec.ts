import { randomUUID } from 'node:crypto';
import { createDashboardUser, createMerchant, waitFor } from '@pay/testing';
import {
  type DashboardBrowser,
  seriousViolations,
  signInToDashboard,
  startDashboardBrowser,
} from './dashboard-browser';

/**
 * The merchant dashboard's QRIS refund (issue 44) in a real browser against the real processes:
 * a paid pay-in's page refunds part of it, the refund is sent to the acquirer (the SNAP simulator)
 * and shown successful, the rest still refundable, the balance down by the refund.
 */
(process.env.E2E_BUS_TRANSPORT === 'kafka' ? describe.skip : describe)(
  'dashboard QRIS refund (processes, Chromium)',
  () => {
    let d: DashboardBrowser;

    beforeAll(async () => {
      d = await startDashboardBrowser('drf');
    }, 120_000);
    afterAll(() => d?.stop());

    it("refunds part of a paid pay-in from its page and shows the refund's outcome", async () => {
      const { prisma, stack } = d;
      const { merchant, token } = await createMerchant(prisma);
      const merchantTrxId = `DRF-${randomUUID().slice(0, 8)}`;
      const api = (path: string, body: object) =>
        fetch(`${stack.gatewayUrl}/api/v1/payin/${path}`, {
          method: 'POST',
          headers: { token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await api('qris/generate', { merchantTrxId, amount: 100000 })).status).toBe(200);
      expect((await api('qris/sandbox/pay', { merchantTrxId })).status).toBe(200);
      // Recorded by the ledger before the refund can come out of pending.
      await waitFor(
        async () => (await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).pending > 0n,
        15_000,
        'the pay-in recorded',
      );
      const user = await createDashboardUser(prisma, { merchantId: merchant.id });
      const context = await d.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));

      await signInToDashboard(page, d.dashboardUrl, user);
      await page.getByRole('link', { name: 'Pay-ins', exact: true }).click();
      await page.getByRole('link', { name: merchantTrxId }).click();
      await page.getByTestId('payin-status').filter({ hasText: 'success' }).waitFor();

      await page.getByLabel('Amount to refund').fill('25000');
      await page.getByLabel('Reason (optional)').fill('returned');
      await page.getByRole('button', { name: /^Refund Rp/ }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Refund DASH-RF-[0-9A-F]{16} accepted/ })
        .waitFor();
      const refund = await prisma.payinRefund.findFirstOrThrow({ where: { merchantId: merchant.id } });
      expect(refund).toMatchObject({ amount: 2_500_000n, reason: 'returned' });
      // The acquirer answers a moment later: the page, loaded again, shows it.
      await waitFor(
        async () => (await prisma.payinRefund.findUniqueOrThrow({ where: { id: refund.id } })).status !== 'pending',
        15_000,
        'the acquirer answered',
      );
      await page.reload();
      await page.getByTestId(`refund-status-${refund.refundId}`).filter({ hasText: 'success' }).waitFor();
      const section = await page.getByRole('table', { name: 'The refunds of this pay-in' }).textContent();
      expect(section).toContain(refund.refundId);
      expect(await page.getByText('Can still be refunded').textContent()).toMatch(/75[.,]000/);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  },
);
