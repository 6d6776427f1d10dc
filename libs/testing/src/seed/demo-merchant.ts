import type { BusConfig } from '@pay/bus';
import { parseAmount, payinFee } from '@pay/domain';
import { MerchantAdmin, type PrismaClient } from '@pay/persistence';
import { insertPayin } from '../fixtures';
import { ledgerCommand, publishLedgerCommands } from './ledger-commands';

export const DEMO_MERCHANT_NAME = 'Demo Merchant';

/**
 * The local runner's demo merchant: default fees (QRIS 0.7 % + 150, so a 50000 pay-in costs
 * 500; payout 2500 flat), three successful QRIS pay-ins recorded by the ledger through the bus,
 * two of them settled. Idempotent: a second run reuses the merchant and issues a new token.
 */
export async function seedDemoMerchant(prisma: PrismaClient, bus: BusConfig) {
  const admin = new MerchantAdmin(prisma);
  const merchant = (await prisma.merchant.findFirst({ where: { name: DEMO_MERCHANT_NAME }, orderBy: { id: 'asc' } })) ?? (await admin.create({ name: DEMO_MERCHANT_NAME }));
  const { token } = await admin.issueToken(merchant.id, `local runner ${new Date().toISOString()}`);

  if ((await prisma.payin.count({ where: { merchantId: merchant.id } })) === 0) {
    const rate = { pctMilli: merchant.payinFeePctMilli, fixed: merchant.payinFeeFixed };
    const payins = [];
    for (const [i, rupiah] of [50000, 125000, 20000].entries()) {
      const amount = parseAmount(rupiah);
      const fee = payinFee(amount, rate);
      const id = await insertPayin(prisma, merchant.id, amount, fee, `DEMO-INV-${i + 1}`);
      payins.push({ id, amount, fee });
    }
    await publishLedgerCommands(bus, payins.map((p) => ledgerCommand.recordPayin(merchant.id, p.id, p.amount, p.fee)));
    await waitFor(async () => (await prisma.payin.count({ where: { merchantId: merchant.id, ledgerEventId: { not: null } } })) === payins.length);
    await publishLedgerCommands(bus, [ledgerCommand.settle(merchant.id, [payins[1].id, payins[2].id])]);
    await waitFor(async () => (await prisma.payin.count({ where: { merchantId: merchant.id, settlementId: { not: null } } })) === 2);
  }
  return { merchantId: merchant.id, name: merchant.name, token };
}

export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
