import type { Command } from 'commander';
import { type PayoutReversals, reversalView } from '@pay/backoffice';
import { formatAmountString } from '@pay/domain';

export interface PayoutCommandContext {
  reversals: () => PayoutReversals;
  print: (human: string, data: unknown) => void;
}

/** `payout reverse`: a successful payout the beneficiary's bank returned (the ops API's and the console's too). */
export function registerPayoutCommands(program: Command, ctx: PayoutCommandContext): void {
  const payout = program.command('payout').description('disbursements (payouts) after the fact');
  payout
    .command('reverse <disbursementId>')
    .description(
      "reverse a successful payout the beneficiary's bank returned: amount + fee go back into the merchant's available balance and its notifyUrl gets a disbursement.reversed callback; again: nothing changes",
    )
    .requiredOption('--reason <text>', 'why the bank returned it (shown to the merchant, kept in the audit log)')
    .action(async (disbursementId: string, o: { reason: string }) => {
      const r = await ctx.reversals().reverse(disbursementId, o.reason);
      ctx.print(
        r.alreadyReversed
          ? `disbursement ${r.disbursementId} was already reversed at ${r.reversedAt.toISOString()} (${r.reason}); nothing changed`
          : `disbursement ${r.disbursementId} (merchant ${r.merchantId}, ${r.merchantTrxId}) reversed: ${formatAmountString(r.returned)} back to available`,
        reversalView(r),
      );
    });
}
