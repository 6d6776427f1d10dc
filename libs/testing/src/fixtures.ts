import { randomUUID } from 'node:crypto';
import { LedgerService } from '@pay/ledger-core';
import { createPgPool, databaseUrlOf, MerchantAdmin, type PrismaClient } from '@pay/persistence';

/** A merchant with a balance row and one token, named uniquely so suites can share a database. */
export async function createMerchant(prisma: PrismaClient, overrides: Partial<{ name: string; isActive: boolean }> = {}) {
  const admin = new MerchantAdmin(prisma);
  const merchant = await admin.create({ name: overrides.name ?? `Toko ${randomUUID().slice(0, 8)}` });
  const { token, id: tokenId } = await admin.issueToken(merchant.id, 'test');
  if (overrides.isActive === false) await admin.setActive(merchant.id, false);
  return { merchant, token, tokenId, admin };
}

/** A successful pay-in row as the acquirer path would leave it, not yet recorded by the ledger. */
export async function insertSuccessfulPayin(prisma: PrismaClient, merchantId: number, amountMinor: bigint, feeMinor: bigint) {
  return insertPayin(prisma, merchantId, amountMinor, feeMinor);
}

export async function insertPayin(prisma: PrismaClient, merchantId: number, amountMinor: bigint, feeMinor: bigint, merchantTrxId?: string) {
  const id = randomUUID();
  await prisma.payin.create({
    data: {
      id,
      merchantId,
      merchantTrxId: merchantTrxId ?? `INV-${id.slice(0, 8)}`,
      platformTrxId: `QR${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
      amount: amountMinor,
      fee: feeMinor,
      feePctMilli: 700,
      feeFixed: 15000n,
      status: 'success',
      rrn: id.slice(0, 12),
      successAt: new Date(),
    },
  });
  return id;
}

const ledgers = new WeakMap<PrismaClient, LedgerService>();

/**
 * The ledger on the same database as `prisma`, as the ledger service runs it (plain pg). Its
 * pool lets the process exit when idle, so tests need not close it.
 */
export function ledgerFor(prisma: PrismaClient): LedgerService {
  let ledger = ledgers.get(prisma);
  if (!ledger) {
    const pool = createPgPool(databaseUrlOf(prisma), 4, { allowExitOnIdle: true });
    // Never ended: the global teardown drops the database WITH (FORCE) while its idle connections
    // are still open, and the FATAL they then get must not crash the test process.
    pool.on('error', () => undefined);
    ledgers.set(prisma, (ledger = new LedgerService(pool)));
  }
  return ledger;
}

/** Funds a merchant through the ledger's real path: successful pay-ins recorded, then settled. */
export async function fundMerchant(prisma: PrismaClient, merchantId: number, amountsMinor: bigint[]): Promise<string[]> {
  const ledger = ledgerFor(prisma);
  const issuedAt = new Date().toISOString();
  const ids: string[] = [];
  for (const amount of amountsMinor) {
    const payinId = await insertSuccessfulPayin(prisma, merchantId, amount, 0n);
    await ledger.apply({ type: 'payin.record', commandId: `payin:${payinId}`, merchantId, issuedAt, payinId, amount: String(amount), fee: '0' });
    ids.push(payinId);
  }
  await ledger.apply({ type: 'settlement.credit', commandId: `settle:${ids[0]}`, merchantId, issuedAt, settlementId: randomUUID(), payinIds: ids });
  return ids;
}
