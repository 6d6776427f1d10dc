import { randomUUID } from 'node:crypto';
import { parseLedgerCommand } from '@pay/contracts';
import { PayinRefundRepository, type PrismaClient } from '@pay/persistence';
import { ledgerFor, poolFor } from '../fixtures';

/**
 * A pay-in refund through the gateway's own path (the row and its payin.refund command in the
 * outbox, recordRefund), then that command applied by the ledger. Returns our refund's id
 * (payin_refunds.id, the acquirer's partnerRefundNo) and the ledger's outcome.
 */
export async function debitedRefund(prisma: PrismaClient, merchantId: number, payinId: string, amount: bigint) {
  const payin = await prisma.payin.findUniqueOrThrow({ where: { id: payinId } });
  const id = randomUUID();
  const verdict = await new PayinRefundRepository(poolFor(prisma)).recordRefund({
    id,
    merchantId,
    merchantTrxId: payin.merchantTrxId,
    refundId: `RF-${id.slice(0, 8)}`,
    amount,
    reason: null,
    logId: null,
    windowSeconds: 86_400,
  });
  if (verdict.kind !== 'created') throw new Error(`refund not recorded: ${verdict.kind}`);
  const [row] = await prisma.$queryRaw<{ payload: unknown }[]>`
    SELECT payload FROM outbox WHERE headers->>'message-id' = ${`payin.refund:${id}`}`;
  const outcome = await ledgerFor(prisma).apply(parseLedgerCommand(row.payload));
  return { id, outcome, platformTrxId: payin.platformTrxId };
}
