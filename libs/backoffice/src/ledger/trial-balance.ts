import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { formatAmount, parseReconDate } from '@pay/domain';
import type { TrialBalanceView } from '@pay/contracts/dashboard';
import { type PrismaClient, trialBalance } from '@pay/persistence';

/** Now, or at the close of a past (or today's) Jakarta day `YYYY-MM-DD`. */
export async function booksTrialBalance(
  prisma: PrismaClient,
  options: { date?: string } = {},
): Promise<TrialBalanceView> {
  if (options.date !== undefined) {
    const day = parseReconDate(options.date, new Date());
    if (!day.ok) throw new BackofficeError(BackofficeErrorCode.InvalidInput, `date ${day.problem}`);
  }
  const tb = await trialBalance(prisma, { date: options.date });
  return {
    asOf: tb.asOf,
    entries: tb.entries,
    lines: tb.lines.map((l) => ({
      account: l.code,
      kind: l.kind,
      merchantId: l.merchantId,
      debit: formatAmount(l.debit),
      credit: formatAmount(l.credit),
    })),
    totalDebit: formatAmount(tb.totalDebit),
    totalCredit: formatAmount(tb.totalCredit),
    balanced: tb.totalDebit === tb.totalCredit,
  };
}
