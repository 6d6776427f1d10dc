import { type LedgerCommand, ledgerCommandId } from '@pay/contracts';
import { fromRow } from '../client/rows';
import { sql, type SqlClient } from '../client/sql';
import type { Disbursement } from '../generated/prisma/client';
import { ledgerCommandMessage, writeOutbox } from '../outbox/outbox-writer';
import { type PayoutAnnouncement, payoutCallbackDelivery, payoutEventMessage } from './payout-announcements';

/** What a reversal found: the disbursement reversed (by this call or before it), or why not. */
export type ReversalOutcome =
  | { kind: 'reversed'; disbursement: Disbursement; reversedNow: boolean }
  | { kind: 'not_found' }
  | { kind: 'not_reversible'; status: string };

/**
 * A successful disbursement the beneficiary's bank returned: success -> reversed (reversed_at,
 * reversal_reason) and, for the row this call moved only, the ledger's `payout.reverse` (amount +
 * fee back into available), the payout event and the merchant's `disbursement.reversed`
 * callback, all on the caller's transaction. Reversing again finds the row reversed and writes
 * nothing: the same command id, event id and callback would be the same facts twice. Two at once
 * wait on the row's lock; the second then finds it reversed.
 */
export async function reverseDisbursement(
  tx: SqlClient,
  input: { disbursementId: string; reason: string; at: Date },
): Promise<ReversalOutcome> {
  const [row] = await tx.query<Record<string, unknown>>(sql`
    UPDATE disbursements d
       SET status = 'reversed', reversed_at = ${input.at}, reversal_reason = ${input.reason}, updated_at = now()
     WHERE d.id = ${input.disbursementId}::uuid AND d.status = 'success'
    RETURNING d.*, (SELECT m.name FROM merchants m WHERE m.id = d.merchant_id) AS merchant_name`);
  if (!row) {
    const [found] = await tx.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursements WHERE id = ${input.disbursementId}::uuid`,
    );
    if (!found) return { kind: 'not_found' };
    const disbursement = fromRow<Disbursement>(found);
    return disbursement.status === 'reversed'
      ? { kind: 'reversed', disbursement, reversedNow: false }
      : { kind: 'not_reversible', status: disbursement.status };
  }
  const { merchant_name, ...fields } = row;
  const disbursement = fromRow<Disbursement>(fields);
  const announced: PayoutAnnouncement = {
    status: 'reversed',
    disbursement: { ...disbursement, merchantName: merchant_name as string },
    at: input.at,
    reason: input.reason,
  };
  await writeOutbox(tx, ledgerCommandMessage(reverseCommand(disbursement, input.reason, input.at)));
  await writeOutbox(tx, payoutEventMessage(announced, input.at));
  const c = payoutCallbackDelivery(announced, input.at);
  // The delivery row is the callback's outbox (its insert wakes the workers' dispatcher); a batch row without
  // notifyUrl (url '') has none, its event only logged (webhook_deliveries_record_event).
  await tx.execute(sql`
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, log_id, created_at, updated_at)
    VALUES (gen_random_uuid(), ${c.eventId}, ${c.eventType}, ${c.merchantId}, ${c.disbursementId}::uuid, ${c.url}, ${c.body}, 'pending', now(), ${c.logId ?? null}, now(), now())
    ON CONFLICT (event_id) DO NOTHING`);
  return { kind: 'reversed', disbursement, reversedNow: true };
}

function reverseCommand(d: Disbursement, reason: string, at: Date): LedgerCommand {
  return {
    type: 'payout.reverse',
    commandId: ledgerCommandId.payoutReverse(d.id),
    merchantId: d.merchantId,
    logId: d.logId ?? undefined,
    issuedAt: at.toISOString(),
    payoutId: d.id,
    reason,
  };
}
