import type { TransactionClient } from '../../client/prisma';
import type { BreachRow } from './breach';

/**
 * Pay-in refunds (issue 44) against their events, for the merchants whose digests disagreed: a
 * debited refund (pending, success, failed) has exactly one `payin.refunded` event moving its
 * split (from pending, from available) out of the balance, a refund the ledger did not debit has
 * none; a failed one has its `payin.refund_returned` event giving its amount back (in flight
 * within the grace period), any other none; a `debiting` one is decided within the grace period.
 */
export function refundBreaches(
  tx: TransactionClient,
  merchantIds: number[],
  graceSeconds: number,
): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH r AS (
      SELECT id, merchant_id, status, amount, from_pending, from_available, ledger_event_id, return_event_id,
             updated_at > now() - make_interval(secs => ${graceSeconds}) AS young
        FROM payin_refunds WHERE merchant_id = ANY(${merchantIds}::int[]) AND status <> 'refused'
    ), e AS (
      SELECT id, merchant_id, type, reference, available_delta, pending_delta FROM ledger_events
       WHERE type IN ('payin.refunded', 'payin.refund_returned') AND merchant_id = ANY(${merchantIds}::int[])
    ), d AS (
      SELECT r.*, e.id AS e_id, e.merchant_id AS e_merchant, e.available_delta AS e_available, e.pending_delta AS e_pending
        FROM r FULL JOIN e ON e.type = 'payin.refunded' AND e.reference = r.id::text
       WHERE e.type IS DISTINCT FROM 'payin.refund_returned'
    ), b AS (
      SELECT r.*, e.id AS e_id, e.merchant_id AS e_merchant, e.available_delta AS e_available, e.pending_delta AS e_pending
        FROM r FULL JOIN e ON e.type = 'payin.refund_returned' AND e.reference = r.id::text
       WHERE e.type IS DISTINCT FROM 'payin.refunded'
    )
    SELECT c.* FROM d CROSS JOIN LATERAL (VALUES
      ('refund.event_missing', 'payin_refunds', d.id::text, d.merchant_id,
       '1 payin.refunded event of pending -' || d.from_pending || ', available -' || d.from_available, 'none (status ' || d.status || ')',
       d.id IS NOT NULL AND d.e_id IS NULL AND d.status IN ('pending', 'success', 'failed'), false),
      ('refund.undecided', 'payin_refunds', d.id::text, d.merchant_id,
       'the ledger''s decision on the refund', 'still debiting', d.id IS NOT NULL AND d.status = 'debiting', d.young),
      ('refund.event_amount', 'ledger_events', d.e_id::text, d.e_merchant,
       'pending -' || d.from_pending || ', available -' || d.from_available || ' (refund ' || d.id || ' of ' || d.amount || ')',
       'pending ' || d.e_pending || ', available ' || d.e_available,
       d.id IS NOT NULL AND d.e_id IS NOT NULL
         AND (d.e_pending <> -d.from_pending OR d.e_available <> -d.from_available OR d.from_pending + d.from_available <> d.amount
              OR d.e_merchant <> d.merchant_id OR d.ledger_event_id IS DISTINCT FROM d.e_id), false),
      ('refund.event_unexpected', 'ledger_events', d.e_id::text, d.e_merchant,
       'no payin.refunded event' || COALESCE(' (refund ' || d.id || ' is ' || d.status || ')', ' (no such refund)'), 'payin.refunded',
       d.e_id IS NOT NULL AND (d.id IS NULL OR d.status NOT IN ('pending', 'success', 'failed')), false)
    ) AS c("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE c.bad
    UNION ALL
    SELECT c.* FROM b CROSS JOIN LATERAL (VALUES
      ('refund.return_missing', 'payin_refunds', b.id::text, b.merchant_id,
       '1 payin.refund_returned event of ' || b.amount || ' (the acquirer refused the refund)', 'none',
       b.id IS NOT NULL AND b.e_id IS NULL AND b.status = 'failed', b.young),
      ('refund.return_amount', 'ledger_events', b.e_id::text, b.e_merchant,
       'pending + available +' || b.amount || ' (refund ' || b.id || ')', 'pending ' || b.e_pending || ', available ' || b.e_available,
       b.id IS NOT NULL AND b.e_id IS NOT NULL
         AND (b.e_pending + b.e_available <> b.amount OR b.e_pending > b.from_pending OR b.e_merchant <> b.merchant_id
              OR b.return_event_id IS DISTINCT FROM b.e_id), false),
      ('refund.return_unexpected', 'ledger_events', b.e_id::text, b.e_merchant,
       'no payin.refund_returned event' || COALESCE(' (refund ' || b.id || ' is ' || b.status || ')', ' (no such refund)'), 'payin.refund_returned',
       b.e_id IS NOT NULL AND (b.id IS NULL OR b.status <> 'failed'), false)
    ) AS c("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE c.bad`;
}
