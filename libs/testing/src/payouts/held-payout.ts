import { randomUUID } from 'node:crypto';
import { ledgerCommandId } from '@pay/contracts';
import { createPgPool, type Disbursement, DisbursementRepository, type PrismaClient } from '@pay/persistence';
import { ledgerFor } from '../fixtures';

/**
 * A transfer through the gateway's own statements: its inquiry, the transfer recorded by the API
 * token `tokenId` (held for approval when above the merchant's threshold: docs/payout-approvals.md),
 * then the ledger's debit. Returns the disbursement as the ledger left it.
 */
export async function debitedTransfer(
  prisma: PrismaClient,
  merchantId: number,
  tokenId: string,
  o: { amount: bigint; fee: bigint },
): Promise<Disbursement> {
  const pool = createPgPool(process.env.DATABASE_URL as string, 1);
  try {
    const disbursements = new DisbursementRepository(pool);
    const id = randomUUID();
    const fields = {
      merchantId,
      merchantTrxId: `APR-${id.slice(0, 8)}`,
      bankCode: 'BCA',
      accountNo: '1234567890',
      accountName: 'BUDI SANTOSO',
    };
    const inquiry = await disbursements.recordInquiry({
      ...fields,
      platformTrxId: `DB${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
      amount: o.amount,
      fee: o.fee,
      expiresAt: new Date(Date.now() + 600_000),
    });
    if (inquiry.kind !== 'created') throw new Error('inquiry not recorded');
    const debit = {
      type: 'payout.debit' as const,
      commandId: ledgerCommandId.payoutDebit(id),
      merchantId,
      issuedAt: new Date().toISOString(),
      payoutId: id,
    };
    const verdict = await disbursements.recordTransfer(
      {
        ...fields,
        id,
        platformTrxId: inquiry.inquiry.platformTrxId,
        amount: o.amount,
        notifyUrl: 'https://merchant.example/cb',
      },
      debit,
      tokenId,
    );
    if (verdict.kind !== 'created') throw new Error(`transfer not recorded: ${verdict.kind}`);
    const decided = await ledgerFor(prisma).apply({ ...debit, amount: String(o.amount), fee: String(o.fee) });
    if (decided.outcome !== 'applied') throw new Error(`debit not applied: ${decided.outcome}`);
    return (await disbursements.get(id)) as Disbursement;
  } finally {
    await pool.end();
  }
}
