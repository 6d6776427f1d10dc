import { randomUUID } from 'node:crypto';
import { BatchRepository, createPgPool, PayoutApprovalRepository, verifyLedger } from '@pay/persistence';
import { createDashboardUser, createMerchant, debitedTransfer, fundMerchant, waitFor } from '@pay/testing';
import {
  type DashboardBrowser,
  seriousViolations,
  signInToDashboard,
  startDashboardBrowser,
} from './dashboard-browser';

/**
 * Approval before money leaves (issue 44 part 2) in a real browser against the real processes: a
 * merchant's payouts above its threshold are held (debited, not sent); a finance user approves one
 * on the Approvals page with its password (the payout service sends it: paid) and rejects another
 * (the ledger gives the money back); a third expires unattended (the payout service fails it and
 * the money comes back); the books verify clean.
 */
(process.env.E2E_BUS_TRANSPORT === 'kafka' ? describe.skip : describe)(
  'dashboard payout approvals (processes, Chromium)',
  () => {
    let d: DashboardBrowser;

    beforeAll(async () => {
      d = await startDashboardBrowser('dapr', {
        snapSimulator: { delayMs: 200 },
        env: { PAYOUT_POLL_INTERVAL_MS: '200' },
      });
    }, 120_000);
    afterAll(() => d?.stop());

    it('a held batch approved -> its rows paid; a payout approved -> paid, rejected -> the money back, expired -> the money back; no serious accessibility violation', async () => {
      const { prisma, browser, dashboardUrl } = d;
      const { merchant, tokenId } = await createMerchant(prisma);
      const FUNDED = 5_000_000_00n;
      const AMOUNT = 1_000_000_00n;
      const FEE = 2_500_00n;
      await fundMerchant(prisma, merchant.id, [FUNDED]);
      const pool = createPgPool(process.env.DATABASE_URL as string, 1);
      await new PayoutApprovalRepository(pool).setSettings(merchant.id, {
        threshold: 500_000_00n,
        ttlSeconds: 3600,
        batches: true,
      });
      // A batch of two small rows, submitted by the API token: held as a whole.
      const batchId = `HELD-${randomUUID().slice(0, 8)}`;
      const submitted = await new BatchRepository(pool).submit(
        {
          id: randomUUID(),
          merchantId: merchant.id,
          batchId,
          requestHash: 'h',
          notifyUrl: null,
          logId: null,
          createdBy: `token:${tokenId}`,
        },
        [1, 2].map((n) => ({
          rowNo: n,
          merchantTrxId: `${batchId}-${n}`,
          bankCode: 'BCA',
          accountNo: '1234567890',
          accountName: null,
          amount: 100_000_00n,
          refusal: null,
        })),
        { code: 'DUPLICATE_MERCHANT_TRX_ID', message: 'taken' },
      );
      await pool.end();
      expect(submitted.kind).toBe('created');
      const held = async () => debitedTransfer(prisma, merchant.id, tokenId, { amount: AMOUNT, fee: FEE });
      const toApprove = await held();
      const toReject = await held();
      const toExpire = await held();
      const available = async () =>
        (await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).available;
      const BATCH = 2n * (100_000_00n + FEE);
      // The payout service checks and debits the batch's rows, and holds them.
      await waitFor(async () => (await available()) === FUNDED - 3n * (AMOUNT + FEE) - BATCH, 30_000);

      const finance = await createDashboardUser(prisma, { merchantId: merchant.id, merchantRole: 'finance' });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await signInToDashboard(page, dashboardUrl, finance);
      await page.getByRole('link', { name: 'Approvals', exact: true }).click();
      const table = page.getByRole('table', { name: 'Payouts awaiting approval' });
      await table.waitFor();
      expect(await table.locator('tbody tr').count()).toBe(3);
      expect(await seriousViolations(page)).toEqual([]);

      const decide = async (verb: 'Approve' | 'Reject', merchantTrxId: string) => {
        await page.getByRole('button', { name: `${verb} ${merchantTrxId}` }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Your password').fill(finance.password);
        await dialog.getByRole('button', { name: verb, exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByTestId('approval-done').waitFor();
      };

      // A wrong password decides nothing and says so in the dialog.
      await page.getByRole('button', { name: `Approve ${toApprove.merchantTrxId}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Your password').fill('not-the-password');
      await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
      await dialog.getByRole('alert').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await prisma.disbursement.findUniqueOrThrow({ where: { id: toApprove.id } })).approval).toBe('awaiting');

      // The batch: one decision for both rows, then paid.
      await decide('Approve', batchId);
      await waitFor(
        async () =>
          (
            await prisma.disbursementBatch.findUniqueOrThrow({
              where: { merchantId_batchId: { merchantId: merchant.id, batchId } },
            })
          ).completedAt !== null,
        30_000,
      );
      expect(
        (await prisma.disbursement.findMany({ where: { merchantTrxId: { startsWith: batchId } } })).map(
          (p) => p.status,
        ),
      ).toEqual(['success', 'success']);

      await decide('Approve', toApprove.merchantTrxId);
      await decide('Reject', toReject.merchantTrxId);
      // The list is read again after each decision: only the payout left to expire remains.
      await waitFor(async () => (await table.locator('tbody tr').count()) === 1, 10_000, 'the list read again');

      // Approved: sent by the payout service over the simulator's bank, paid.
      await waitFor(
        async () => (await prisma.disbursement.findUniqueOrThrow({ where: { id: toApprove.id } })).status === 'success',
        30_000,
      );
      // Rejected: failed unsent, the ledger's refund applied by the ledger process.
      await waitFor(async () => (await available()) === FUNDED - 2n * (AMOUNT + FEE) - BATCH, 30_000);
      expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: toReject.id } })).toMatchObject({
        status: 'failed',
        failureCode: 'APPROVAL_REJECTED',
        submittedAt: null,
      });

      // Expiry: its time runs out; the payout service (no timer of its own) finds it due and fails it.
      await prisma.$executeRaw`UPDATE disbursements SET approval_expires_at = now(), next_check_at = now() WHERE id = ${toExpire.id}::uuid`;
      await waitFor(async () => (await available()) === FUNDED - (AMOUNT + FEE) - BATCH, 30_000);
      expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: toExpire.id } })).toMatchObject({
        status: 'failed',
        approval: 'expired',
        failureCode: 'APPROVAL_EXPIRED',
      });

      await page.reload();
      await page.getByText('No payout is awaiting approval.').waitFor();
      await page.getByText('No batch is awaiting approval.').waitFor();
      await waitFor(async () => {
        const report = await verifyLedger(prisma, { merchantIds: [merchant.id] });
        return report.breaches.length === 0 && report.inFlight.length === 0;
      }, 30_000);
      const audit = await prisma.$queryRaw<{ action: string; details: { approval: string } }[]>`
        SELECT action, details FROM operator_audit_log WHERE merchant_id = ${merchant.id} AND action LIKE '%.approval' ORDER BY id`;
      expect(audit.map((r) => `${r.action} ${r.details.approval}`)).toEqual([
        'batch.approval approved',
        'payout.approval approved',
        'payout.approval rejected',
        // The expiry, which no user took: written where the payout service expired it.
        'payout.approval expired',
      ]);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  },
);
