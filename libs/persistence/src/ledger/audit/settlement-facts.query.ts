import type { TransactionClient } from '../../client/prisma';
import type { BreachRow } from './breach';

/**
 * Settlements against their `settlement.credited` event and their pay-ins, for the merchants
 * whose digests disagreed: one event per settlement moving exactly the sum of its pay-ins'
 * nets (less what refunds took from their pending, refunded_pending) from pending to available,
 * and the settlement row's count, gross, fees, refunds and amount equal to what its pay-ins add up to.
 */
export function settlementBreaches(tx: TransactionClient, merchantIds: number[]): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH s AS (
      SELECT id, merchant_id, amount, payin_count, gross, fees, refunds FROM settlements WHERE merchant_id = ANY(${merchantIds}::int[])
    ), agg AS (
      SELECT p.settlement_id, count(*) AS n, sum(p.amount)::bigint AS gross, sum(p.fee)::bigint AS fees, sum(p.amount - p.fee - p.refunded_pending)::bigint AS net,
             sum(p.refunded_pending)::bigint AS refunds,
             count(*) FILTER (WHERE p.status <> 'success' OR p.ledger_event_id IS NULL) AS unbooked,
             count(*) FILTER (WHERE p.merchant_id <> s.merchant_id) AS foreign_payins
        FROM payins p JOIN s ON s.id = p.settlement_id GROUP BY p.settlement_id
    ), e AS (
      SELECT id, merchant_id, reference, available_delta, pending_delta FROM ledger_events
       WHERE type = 'settlement.credited' AND merchant_id = ANY(${merchantIds}::int[])
    ), k AS (
      SELECT s.id AS s_id, s.merchant_id AS s_merchant, s.amount, s.payin_count, s.gross, s.fees, s.refunds,
             COALESCE(agg.n, 0) AS n, COALESCE(agg.gross, 0) AS p_gross, COALESCE(agg.fees, 0) AS p_fees, COALESCE(agg.net, 0) AS p_net, COALESCE(agg.refunds, 0) AS p_refunds,
             COALESCE(agg.unbooked, 0) AS unbooked, COALESCE(agg.foreign_payins, 0) AS foreign_payins,
             e.id AS e_id, e.merchant_id AS e_merchant, e.reference AS e_reference, e.available_delta AS e_available, e.pending_delta AS e_pending,
             (SELECT o.merchant_id FROM settlements o WHERE s.id IS NULL AND o.id::text = e.reference) AS other_merchant
        FROM s LEFT JOIN agg ON agg.settlement_id = s.id
        FULL JOIN e ON e.reference = s.id::text
    )
    SELECT c.* FROM k CROSS JOIN LATERAL (VALUES
      ('settlement.event_missing', 'settlements', k.s_id::text, k.s_merchant,
       '1 settlement.credited event of available +' || k.p_net || ', pending -' || k.p_net, 'none',
       k.s_id IS NOT NULL AND k.e_id IS NULL, false),
      ('settlement.event_amount', 'ledger_events', k.e_id::text, k.e_merchant,
       'available +' || k.p_net || ', pending -' || k.p_net || ' (the nets of the ' || k.n || ' pay-ins of settlement ' || k.s_id || CASE WHEN k.p_refunds > 0 THEN ', less ' || k.p_refunds || ' refunded from pending' ELSE '' END || ')',
       'available ' || k.e_available || ', pending ' || k.e_pending,
       k.s_id IS NOT NULL AND k.e_id IS NOT NULL AND (k.e_available <> k.p_net OR k.e_pending <> -k.p_net), false),
      ('settlement.event_merchant', 'ledger_events', k.e_id::text, k.e_merchant,
       'merchant ' || k.s_merchant || ' (the merchant of settlement ' || k.s_id || ')', 'merchant ' || k.e_merchant,
       k.s_id IS NOT NULL AND k.e_merchant <> k.s_merchant, false),
      ('settlement.totals', 'settlements', k.s_id::text, k.s_merchant,
       'payin_count ' || k.n || ', gross ' || k.p_gross || ', fees ' || k.p_fees
         || CASE WHEN k.p_refunds <> 0 OR k.refunds <> 0 THEN ', refunds ' || k.p_refunds ELSE '' END || ', amount ' || k.p_net || ' (its pay-ins)',
       'payin_count ' || k.payin_count || ', gross ' || COALESCE(k.gross::text, 'NULL') || ', fees ' || COALESCE(k.fees::text, 'NULL')
         || CASE WHEN k.p_refunds <> 0 OR k.refunds <> 0 THEN ', refunds ' || k.refunds ELSE '' END || ', amount ' || k.amount,
       k.s_id IS NOT NULL AND (k.payin_count <> k.n OR k.amount <> k.p_net OR k.gross <> k.p_gross OR k.fees <> k.p_fees OR k.refunds <> k.p_refunds), false),
      ('settlement.payins', 'settlements', k.s_id::text, k.s_merchant,
       'only recorded, successful pay-ins of merchant ' || k.s_merchant,
       k.unbooked || ' unrecorded or unsuccessful, ' || k.foreign_payins || ' of other merchants',
       k.s_id IS NOT NULL AND (k.unbooked > 0 OR k.foreign_payins > 0), false),
      ('event.orphan', 'ledger_events', k.e_id::text, k.e_merchant,
       'settlement ' || k.e_reference || ' of merchant ' || k.e_merchant,
       COALESCE('a settlement of merchant ' || k.other_merchant, 'no such settlement'),
       k.s_id IS NULL, false)
    ) AS c("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE c.bad`;
}
