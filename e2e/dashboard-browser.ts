import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { repoRoot } from '@pay/testing';
import { freePort, LocalStack, type StackOptions, testStackBus, testS3 } from '@pay/devstack';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The real processes with the dashboard served by the gateway, a database client and a headless Chromium. */
export interface DashboardBrowser {
  stack: LocalStack;
  prisma: PrismaClient;
  browser: Browser;
  dashboardUrl: string;
  stop(): Promise<void>;
}

/** `name` keys the bus and the logs apart; `env` and `snapSimulator` go to the stack. */
export async function startDashboardBrowser(
  name: string,
  opts: { env?: Record<string, string>; snapSimulator?: StackOptions['snapSimulator'] } = {},
): Promise<DashboardBrowser> {
  const gatewayPort = await freePort();
  const dashboardUrl = `http://127.0.0.1:${gatewayPort}/dashboard/`;
  const stack = await LocalStack.start({
    databaseUrl: process.env.DATABASE_URL as string,
    redisUrl: process.env.TEST_REDIS_URL as string,
    busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}${name}:`,
    bus: testStackBus(),
    s3: testS3(),
    ports: { gateway: gatewayPort },
    logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}${name}`),
    ...(opts.snapSimulator ? { snapSimulator: opts.snapSimulator } : {}),
    env: { BUS_LEASE_TTL_MS: '2000', DASHBOARD_PUBLIC_URL: dashboardUrl, ...opts.env },
  });
  const prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    stack,
    prisma,
    browser,
    dashboardUrl,
    stop: async () => {
      await browser.close();
      await stack.stop();
      await prisma.$disconnect();
    },
  };
}

/** Signs a dashboard user in from the sign-in page. */
export async function signInToDashboard(page: Page, dashboardUrl: string, user: { email: string; password: string }) {
  await page.goto(dashboardUrl);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The ids of the page's serious and critical accessibility violations (axe). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}
