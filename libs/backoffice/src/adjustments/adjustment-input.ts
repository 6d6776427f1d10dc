import type { PostingLine } from '@pay/contracts';
import { Account, accountKind, formatAmountString, parseAmount } from '@pay/domain';
import { invalidInput } from '../merchants/merchant-input';

/** What an operator asks for: lines in Rupiah, signed (a debit positive, a credit negative), and why. */
export interface AdjustmentRequestInput {
  /** The merchant whose available it moves; null or absent: the platform's own accounts only */
  merchantId?: number | null;
  postings: { account: string; amount: string | number }[];
  reason: string;
}

/** The ledger's books.adjust carries at most this many lines and this much reason. */
export const ADJUSTMENT_MAX_LINES = 20;
export const ADJUSTMENT_REASON_MAX = 500;

export interface CheckedAdjustment {
  merchantId: number | null;
  /** As the ledger command carries them: signed minor units as text */
  postings: PostingLine[];
  reason: string;
}

/**
 * Checks an adjustment before anyone is asked to approve it, as the ledger will (decision 0049):
 * two lines or more, one per account, each an account of the chart with an amount other than
 * zero, summing to zero; a merchant's account only its available, and only the named merchant's,
 * which a merchant's adjustment must move. Each refusal names the field it is about.
 */
export function checkAdjustment(input: AdjustmentRequestInput): CheckedAdjustment {
  const reason = (input.reason ?? '').trim();
  if (!reason) throw invalidInput('reason', 'reason must say why the books are adjusted');
  if (reason.length > ADJUSTMENT_REASON_MAX)
    throw invalidInput('reason', `reason must be at most ${ADJUSTMENT_REASON_MAX} characters`);
  const merchantId = input.merchantId ?? null;
  if (merchantId !== null && !(Number.isSafeInteger(merchantId) && merchantId > 0))
    throw invalidInput(
      'merchantId',
      'merchantId must be a merchant id (a positive integer), or absent for the platform',
    );
  const lines = Array.isArray(input.postings) ? input.postings : [];
  if (lines.length < 2 || lines.length > ADJUSTMENT_MAX_LINES)
    throw invalidInput(
      'postings',
      `an adjustment has 2 to ${ADJUSTMENT_MAX_LINES} lines (a debit and a credit at least)`,
    );
  const own = merchantId === null ? null : Account.merchantAvailable(merchantId);
  const seen = new Set<string>();
  const postings = lines.map((line, i) => {
    const account = typeof line?.account === 'string' ? line.account.trim() : '';
    const field = `postings[${i}]`;
    if (accountKind(account) === null)
      throw invalidInput(`${field}.account`, `${account || '(empty)'} is not an account of the chart`);
    if (seen.has(account)) throw invalidInput(`${field}.account`, `${account} appears twice: one line per account`);
    seen.add(account);
    if (account.startsWith('merchant:') && account !== own)
      throw invalidInput(
        `${field}.account`,
        account.endsWith(':pending')
          ? `${account}: a merchant's pending balance is never adjusted, only its available`
          : own === null
            ? `${account}: name the merchant (merchantId) to move its available`
            : `${account}: an adjustment for merchant ${merchantId} moves only ${own}`,
      );
    return { account, amount: signedMinor(line?.amount, `${field}.amount`) };
  });
  const sum = postings.reduce((s, p) => s + p.amount, 0n);
  if (sum !== 0n)
    throw invalidInput(
      'postings',
      `the lines must balance (debits positive, credits negative, summing to 0); they sum to ${formatAmountString(sum)}`,
    );
  if (own !== null && !seen.has(own))
    throw invalidInput(
      'postings',
      `an adjustment for merchant ${merchantId} moves its available: add a line for ${own}`,
    );
  return { merchantId, reason, postings: postings.map((p) => ({ account: p.account, amount: p.amount.toString() })) };
}

/** A signed Rupiah amount with at most two decimals, not zero, as minor units. */
function signedMinor(value: unknown, field: string): bigint {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const negative = text.startsWith('-');
  let minor: bigint;
  try {
    minor = parseAmount(negative ? text.slice(1) : text);
  } catch {
    throw invalidInput(
      field,
      `${field} must be Rupiah with at most two decimals, positive for a debit, negative for a credit`,
    );
  }
  if (minor === 0n) throw invalidInput(field, `${field} must not be zero`);
  return negative ? -minor : minor;
}
