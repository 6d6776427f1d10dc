import { API_SCOPES, type MerchantRole } from '@pay/domain';
import { createDashboardUser, createMerchant } from '@pay/testing';
import type { Page } from 'playwright-core';
import {
  type DashboardBrowser,
  seriousViolations,
  signInToDashboard,
  startDashboardBrowser,
} from './dashboard-browser';

/**
 * Dashboard roles (issue 45 part 1, docs/access.md) in a real browser against the real processes:
 * a viewer sees no token, payout, pay-in or export button (no dead buttons), a finance user
 * reaches the reports and exports a day, a developer issues a token with only the scopes it
 * chose, listed with them.
 */
(process.env.E2E_BUS_TRANSPORT === 'kafka' ? describe.skip : describe)('dashboard roles (processes, Chromium)', () => {
  let d: DashboardBrowser;

  beforeAll(async () => {
    d = await startDashboardBrowser('drl');
  }, 120_000);
  afterAll(() => d?.stop());

  async function signedIn(role: MerchantRole): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
    const { merchant } = await createMerchant(d.prisma);
    const user = await createDashboardUser(d.prisma, { merchantId: merchant.id, merchantRole: role });
    const context = await d.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await signInToDashboard(page, d.dashboardUrl, user);
    return { page, errors, close: () => context.close() };
  }
  const nav = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

  it('shows a viewer what it may read and no button it may not press', async () => {
    const { page, errors, close } = await signedIn('viewer');
    // The overview's balance, but no sandbox "settle now" (a pay-in write).
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByRole('button', { name: 'Settle pending now' }).count()).toBe(0);
    await expect(nav(page, 'Reconciliation').count()).resolves.toBe(0);

    await nav(page, 'Developers').click();
    await page.getByRole('table', { name: 'API tokens' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await page.getByTestId('token-scopes').first().textContent()).toBe('All (full access)');
    expect(await seriousViolations(page)).toEqual([]);

    await nav(page, 'Payouts').click();
    await page.getByRole('heading', { name: 'Payouts' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upload a batch (CSV)' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);

    await nav(page, 'Pay-ins').click();
    await page.getByRole('heading', { name: 'Pay-ins' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create QR' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it('lets a finance user reach the reports and export a day', async () => {
    const { page, errors, close } = await signedIn('finance');
    await nav(page, 'Payouts').click();
    await page.getByRole('link', { name: 'Download CSV' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upload a batch (CSV)' }).count()).toBe(0);
    await nav(page, 'Reconciliation').click();
    await page.getByRole('heading', { name: 'Reconciliation' }).waitFor();
    await page.getByRole('button', { name: 'Export' }).click();
    await page
      .getByText(/Preparing the file…|^Download$/)
      .first()
      .waitFor();
    expect(await page.getByText('Your role does not allow this').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it('lets a developer issue a token with the scopes it chose', async () => {
    const { page, errors, close } = await signedIn('developer');
    await nav(page, 'Developers').click();
    await page.getByLabel('Token label').fill('reporting');
    const kept = ['balance:read', 'payins:read'];
    for (const scope of API_SCOPES.filter((s) => !kept.includes(s)))
      await page.getByRole('checkbox', { name: scope, exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByTestId('new-token').waitFor();
    await page.getByTestId('token-scopes').filter({ hasText: 'balance:read, payins:read' }).waitFor();
    const token = await d.prisma.apiToken.findFirstOrThrow({
      where: { label: 'reporting' },
      orderBy: { createdAt: 'desc' },
    });
    expect(token.scopes).toEqual(['balance:read', 'payins:read']);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
