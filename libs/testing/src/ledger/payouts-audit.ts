import { type PrismaClient, verifyLedger } from '@pay/persistence';
import { waitFor } from '../seed/demo-merchant';

/**
 * The strict ledger audit of one merchant once each of its final payouts' last ledger command (its
 * confirmation or refund), which travels the bus after the status, is decided: the breaches (none: clean).
 */
export async function merchantAuditOnceSettled(
  prisma: PrismaClient,
  merchantId: number,
  timeoutMs = 15_000,
): Promise<unknown[]> {
  await waitFor(
    async () =>
      (
        await prisma.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM disbursements d
           WHERE d.merchant_id = ${merchantId} AND d.status IN ('success', 'failed')
             AND NOT EXISTS (SELECT 1 FROM ledger_commands c WHERE c.command_id =
                   CASE d.status WHEN 'success' THEN 'payout.confirm:' ELSE 'payout.refund:' END || d.id::text)`
      )[0].n === 0,
    timeoutMs,
    "the payouts' last ledger commands decided",
  );
  return (await verifyLedger(prisma, { merchantIds: [merchantId] })).breaches;
}
