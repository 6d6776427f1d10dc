import { Prisma, type TransactionClient } from '../../client/prisma';
import { type BreachRow, refUuid } from './breach';

/**
 * Pay-ins against their `payin.recorded` events, for the merchants whose digests disagreed.
 * The pair is joined on the link the ledger writes (payins.ledger_event_id); a row the link
 * does not pair is looked up by reference (the event's reference is the pay-in id), so a
 * missing link, a missing event and an event for a row that does not exist are told apart.
 */
export function payinBreaches(
  tx: TransactionClient,
  merchantIds: number[],
  graceSeconds: number,
): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH p AS (
      SELECT id, merchant_id, status, amount, fee, fee_pct_milli, fee_fixed, sandbox, ledger_event_id, updated_at,
             LEAST(amount, div(amount::numeric * fee_pct_milli * 2 + 100000, 200000)::bigint + fee_fixed) AS rate_fee
        FROM payins WHERE merchant_id = ANY(${merchantIds}::int[])
    ), e AS (
      SELECT id, merchant_id, reference, available_delta, pending_delta, payload @> '{"sandbox": true}' AS sandbox FROM ledger_events
       WHERE type = 'payin.recorded' AND merchant_id = ANY(${merchantIds}::int[])
    ), j AS (
      SELECT p.*, e.id AS e_id, e.merchant_id AS e_merchant, e.reference AS e_reference, e.available_delta AS e_available, e.pending_delta AS e_pending,
             e.sandbox AS e_sandbox,
             e.id IS NOT NULL AND p.id IS NOT NULL AND e.reference = p.id::text AS paired
        FROM p FULL JOIN e ON e.id = p.ledger_event_id
       WHERE p.id IS NULL OR p.fee <> p.rate_fee
          OR e.id IS NULL AND (p.status = 'success' OR p.ledger_event_id IS NOT NULL)
          OR e.id IS NOT NULL AND (p.status <> 'success' OR e.merchant_id <> p.merchant_id OR e.reference <> p.id::text
                                   OR e.pending_delta <> p.amount - p.fee OR e.available_delta <> 0 OR e.sandbox <> p.sandbox)
    ), looked AS (
      -- Lookups by key for the few rows left, as subqueries so they stay index probes per row.
      SELECT j.*,
             -- the pay-in's own event, by reference, when the link did not lead to it
             (SELECT x FROM ledger_events x WHERE j.id IS NOT NULL AND NOT j.paired
                 AND x.merchant_id = j.merchant_id AND x.type = 'payin.recorded' AND x.reference = j.id::text) AS r,
             -- what the link points at instead
             (SELECT y.type || ' of ' || y.reference FROM ledger_events y WHERE j.id IS NOT NULL AND NOT j.paired AND y.id = j.ledger_event_id) AS link_target,
             -- the pay-in an unlinked event names
             (SELECT z FROM payins z WHERE j.id IS NULL AND z.id = ${refUuid(Prisma.sql`j.e_reference`)}) AS q
        FROM j
    ), k AS (
      SELECT j.*,
             CASE WHEN j.paired THEN j.e_id ELSE (j.r).id END AS ev_id,
             CASE WHEN j.paired THEN j.e_merchant ELSE (j.r).merchant_id END AS ev_merchant,
             CASE WHEN j.paired THEN j.e_available ELSE (j.r).available_delta END AS ev_available,
             CASE WHEN j.paired THEN j.e_pending ELSE (j.r).pending_delta END AS ev_pending,
             CASE WHEN j.paired THEN j.e_sandbox ELSE (j.r).payload @> '{"sandbox": true}' END AS ev_sandbox,
             (j.q).id AS q_id, (j.q).merchant_id AS q_merchant, (j.q).status AS q_status
        FROM looked j
    )
    SELECT c.* FROM k CROSS JOIN LATERAL (VALUES
      ('payin.event_missing', 'payins', k.id::text, k.merchant_id,
       '1 payin.recorded event of pending +' || (k.amount - k.fee), 'none',
       k.id IS NOT NULL AND k.status = 'success' AND k.ev_id IS NULL,
       k.ledger_event_id IS NULL AND k.updated_at > now() - make_interval(secs => ${graceSeconds})),
      ('payin.link', 'payins', k.id::text, k.merchant_id,
       'ledger_event_id ' || COALESCE(k.ev_id::text, 'NULL (no payin.recorded event)'),
       'ledger_event_id ' || COALESCE(k.ledger_event_id::text || COALESCE(' (' || k.link_target || ')', ' (no such event)'), 'NULL'),
       k.id IS NOT NULL AND NOT k.paired AND k.ledger_event_id IS DISTINCT FROM k.ev_id, false),
      ('payin.event_amount', 'ledger_events', k.ev_id::text, k.ev_merchant,
       'pending +' || (k.amount - k.fee) || ', available 0 (pay-in ' || k.id || ': amount ' || k.amount || ' - fee ' || k.fee || ')',
       'pending +' || k.ev_pending || ', available ' || k.ev_available,
       k.ev_id IS NOT NULL AND (k.ev_pending <> k.amount - k.fee OR k.ev_available <> 0), false),
      ('payin.event_merchant', 'ledger_events', k.ev_id::text, k.ev_merchant,
       'merchant ' || k.merchant_id || ' (the merchant of pay-in ' || k.id || ')', 'merchant ' || k.ev_merchant,
       k.ev_id IS NOT NULL AND k.ev_merchant <> k.merchant_id, false),
      ('payin.event_unexpected', 'ledger_events', k.ev_id::text, k.ev_merchant,
       'no event: pay-in ' || k.id || ' is ' || k.status, 'payin.recorded of pending +' || k.ev_pending,
       k.ev_id IS NOT NULL AND k.status <> 'success', false),
      ('payin.event_sandbox', 'ledger_events', k.ev_id::text, k.ev_merchant,
       CASE WHEN k.sandbox THEN 'marked sandbox (pay-in ' || k.id || ' was paid by the sandbox payer)'
            ELSE 'not marked sandbox (pay-in ' || k.id || ' was not paid by the sandbox payer)' END,
       CASE WHEN k.ev_sandbox THEN 'marked sandbox' ELSE 'not marked sandbox' END,
       k.id IS NOT NULL AND k.ev_id IS NOT NULL AND k.ev_sandbox <> k.sandbox, false),
      ('payin.fee', 'payins', k.id::text, k.merchant_id,
       'fee ' || k.rate_fee || ' (' || k.fee_pct_milli || '/1000 % of ' || k.amount || ' rounded half up, + ' || k.fee_fixed || ', at most the amount)',
       'fee ' || k.fee, k.id IS NOT NULL AND k.fee <> k.rate_fee, false),
      ('event.orphan', 'ledger_events', k.e_id::text, k.e_merchant,
       'pay-in ' || k.e_reference, 'no such pay-in', k.id IS NULL AND k.q_id IS NULL, false),
      ('payin.event_merchant', 'ledger_events', k.e_id::text, k.e_merchant,
       'merchant ' || k.q_merchant || ' (the merchant of pay-in ' || k.q_id || ')', 'merchant ' || k.e_merchant,
       k.id IS NULL AND k.q_merchant <> k.e_merchant, false),
      ('payin.event_unexpected', 'ledger_events', k.e_id::text, k.e_merchant,
       'no event: pay-in ' || k.q_id || ' is ' || k.q_status, 'payin.recorded of pending +' || k.e_pending,
       k.id IS NULL AND k.q_merchant = k.e_merchant AND k.q_status <> 'success', false)
    ) AS c("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE c.bad`;
}

/**
 * Successful pay-ins still in flight: not yet recorded, changed within the grace period, and no
 * event booked for them. The digests leave them out, so a busy merchant is not examined row by
 * row for them; they are listed from the index of unsettled successful pay-ins instead.
 */
export function payinsInFlight(
  tx: TransactionClient,
  merchantIds: number[],
  graceSeconds: number,
): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    SELECT 'payin.event_missing' AS "check", 'payins' AS tbl, p.id::text AS id, p.merchant_id,
           '1 payin.recorded event of pending +' || (p.amount - p.fee) AS expected, 'none' AS found, true AS in_flight
      FROM payins p
     WHERE p.merchant_id = ANY(${merchantIds}::int[]) AND p.status = 'success' AND p.settlement_id IS NULL AND p.ledger_event_id IS NULL
       AND p.updated_at > now() - make_interval(secs => ${graceSeconds})
       AND NOT EXISTS (SELECT 1 FROM ledger_events e WHERE e.merchant_id = p.merchant_id AND e.type = 'payin.recorded' AND e.reference = p.id::text)`;
}
