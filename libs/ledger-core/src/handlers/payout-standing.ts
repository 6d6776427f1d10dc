import { BooksEntryType, LedgerEventType } from '@pay/contracts';
import { accountName, type PayoutStanding } from '@pay/domain';
import { sql, type SqlClient } from '@pay/persistence';

/** A debited payout as the books hold it: what was debited, where its amount stands, and whether it came back. */
export interface PayoutInBooks {
  amount: bigint;
  fee: bigint;
  /** What the debit took out of available (negative) */
  availableDelta: bigint;
  standing: PayoutStanding;
  sent: boolean;
  confirmed: boolean;
  /** payout.refunded or payout.reversed, if either was booked */
  returned: LedgerEventType | null;
}

/** The payout's debit and its entries since, or null when it was never debited (for this merchant). */
export async function payoutInBooks(
  tx: SqlClient,
  merchantId: number,
  payoutId: string,
): Promise<PayoutInBooks | null> {
  const [row] = await tx.query<{
    available_delta: bigint;
    amount: string;
    fee: string;
    sent_rail: string | null;
    confirmed_rail: string | null;
    returned: LedgerEventType | null;
  }>(sql`
    SELECT e.available_delta, e.payload->>'amount' AS amount, e.payload->>'fee' AS fee,
           (SELECT j.memo->>'rail' FROM platform_entries j
             WHERE j.type = ${BooksEntryType.PayoutSent} AND j.reference = e.reference AND j.merchant_id = e.merchant_id) AS sent_rail,
           (SELECT j.memo->>'rail' FROM platform_entries j
             WHERE j.type = ${BooksEntryType.PayoutConfirmed} AND j.reference = e.reference AND j.merchant_id = e.merchant_id) AS confirmed_rail,
           (SELECT r.type FROM ledger_events r
             WHERE r.merchant_id = e.merchant_id AND r.reference = e.reference
               AND r.type IN (${LedgerEventType.PayoutRefunded}, ${LedgerEventType.PayoutReversed}) LIMIT 1) AS returned
      FROM ledger_events e
     WHERE e.merchant_id = ${merchantId} AND e.type = ${LedgerEventType.PayoutDebited} AND e.reference = ${payoutId}`);
  if (!row) return null;
  const standing: PayoutStanding = row.confirmed_rail
    ? { at: 'cash', rail: row.confirmed_rail }
    : row.sent_rail
      ? { at: 'in_transit', rail: row.sent_rail }
      : { at: 'payable' };
  return {
    amount: BigInt(row.amount),
    fee: BigInt(row.fee),
    availableDelta: row.available_delta,
    standing,
    sent: row.sent_rail !== null,
    confirmed: row.confirmed_rail !== null,
    returned: row.returned,
  };
}

/** The rail as its accounts are named. */
export function railAccountName(rail: string): string {
  return accountName(rail);
}
