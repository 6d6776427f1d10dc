import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { formatAmount, parseReconDate } from '@pay/domain';
import { type PrismaClient, trialBalance } from '@pay/persistence';

/** One account of the trial balance, amounts in Rupiah (debit or credit, the other 0). */
export interface TrialBalanceLineView {
  account: string;
  kind: string;
  merchantId: number | null;
  debit: number;
  credit: number;
}

/** The books' trial balance as operators read it (CLI `ledger trial-balance`, ops API, console). */
export interface TrialBalanceView {
  /** The Jakarta day whose close it shows, or null for now */
  asOf: string | null;
  entries: number;
  lines: TrialBalanceLineView[];
  totalDebit: number;
  totalCredit: number;
  /** Total debits equal total credits, to the sen */
  balanced: boolean;
}

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
