import { type PrismaClient, SettlementPlanner } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';

export const DEMO_MERCHANT_NAME = 'Demo Merchant';
const LOCAL_RUNNER_TOKEN = 'local runner';

/**
 * The local runner's demo merchant, built through the real paths: default fees (QRIS 0.7 % +
 * 150, so a 50000 pay-in costs 500; payout 2500 flat), three QRIS codes generated and paid by
 * the sandbox payer over HTTP, two of them settled. Idempotent: a second run reuses the
 * merchant and issues a new token, revoking the previous run's.
 */
export async function seedDemoMerchant(prisma: PrismaClient, gatewayUrl: string) {
  const admin = new MerchantAdmin(prisma);
  const merchant =
    (await prisma.merchant.findFirst({ where: { name: DEMO_MERCHANT_NAME }, orderBy: { id: 'asc' } })) ??
    (await admin.create({ name: DEMO_MERCHANT_NAME }));
  // One local runner token at a time: the previous start's is revoked, not left active behind.
  for (const t of await admin.listTokens(merchant.id))
    if (!t.revokedAt && t.label?.startsWith(LOCAL_RUNNER_TOKEN)) await admin.revokeToken(t.id);
  const { token } = await admin.issueToken(merchant.id, `${LOCAL_RUNNER_TOKEN} ${new Date().toISOString()}`);

  if ((await prisma.payin.count({ where: { merchantId: merchant.id } })) === 0) {
    const pay = async (merchantTrxId: string, amount: number) => {
      for (const [path, body] of [
        ['generate', { merchantTrxId, amount }],
        ['sandbox/pay', { merchantTrxId, issuer: 'DANA' }],
      ] as const) {
        const res = await fetch(`${gatewayUrl}/api/v1/payin/qris/${path}`, {
          method: 'POST',
          headers: { token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`demo seed: ${path} answered ${res.status}: ${await res.text()}`);
      }
    };
    const recorded = async (n: number) =>
      (await prisma.payin.count({ where: { merchantId: merchant.id, ledgerEventId: { not: null } } })) === n;
    await pay('DEMO-INV-2', 125000);
    await pay('DEMO-INV-3', 20000);
    await waitFor(() => recorded(2), 20_000, 'the ledger recording the demo pay-ins');
    const settlement = await new SettlementPlanner(prisma).plan(merchant.id, new Date());
    await waitFor(
      async () => (await prisma.settlement.count({ where: { id: settlement?.settlementId } })) === 1,
      20_000,
      'the demo settlement',
    );
    await pay('DEMO-INV-1', 50000);
    await waitFor(() => recorded(3), 20_000, 'the ledger recording the demo pay-ins');
  }
  return { merchantId: merchant.id, name: merchant.name, token };
}

export async function waitFor(
  condition: () => Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
