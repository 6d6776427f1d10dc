import { type PrismaClient, verifyLedger, type VerifyReport } from '@pay/persistence';

/** A pay-in or failed payout whose ledger command may still be on the bus this long is in flight, not a breach. */
export const DEFAULT_GRACE_SECONDS = 300;

/** The ledger audit as operators run it (ops API, CLI `ledger verify`): one merchant or all. */
export function auditLedger(
  prisma: PrismaClient,
  options: { merchantId?: number; graceSeconds?: number },
): Promise<VerifyReport> {
  return verifyLedger(prisma, {
    merchantIds: options.merchantId ? [options.merchantId] : undefined,
    graceSeconds: options.graceSeconds ?? DEFAULT_GRACE_SECONDS,
  });
}
