import { randomBytes } from 'node:crypto';
import { type Browser, chromium } from 'playwright-core';
import { composeTarget } from './target';

/**
 * The merchant dashboard through a deployed gateway (the docker-compose stack of
 * tools/containers/compose-test.sh, from this machine's browser): a merchant and its user made
 * through the ops API, the password set from the one-time link, a sign-in in Chromium, and the
 * overview showing the merchant's balance and name. Runs only with E2E_BASE_URL, E2E_INTERNAL_URL
 * and E2E_ADMIN_TOKEN (jest.compose.config.js); the processes' browser test is
 * e2e/dashboard.e2e-spec.ts.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = `Smoke-${randomBytes(9).toString('base64url')}`;

describe('the dashboard through the compose gateway (Chromium)', () => {
  let browser: Browser;
  const { base, ops } = composeTarget();
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => browser?.close());

  it('a merchant user sets its password, signs in and sees its overview', async () => {
    const name = `Toko Compose ${randomBytes(3).toString('hex')}`;
    const merchant = await ops('merchants', { name });
    const email = `compose-${randomBytes(4).toString('hex')}@example.test`;
    const user = await ops('dashboard-users', { email, role: 'merchant', merchantId: merchant.merchantId });
    const token = String(user.setPasswordUrl).split('/').at(-1);
    const set = await fetch(`${base}/dashboard/api/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: PASSWORD }),
    });
    expect(set.status).toBe(200);

    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 500) failures.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 20_000 });
    // The balance, once loaded: a new merchant's is zero.
    await page
      .getByText(/Rp\s?0/)
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('body').innerText()).toContain(name);
    expect(failures).toEqual([]);
    await page.close();
  });
});
