import { Prisma, type TransactionClient } from '../../client/prisma';
import { type BreachRow, refUuid, UUID_PATTERN } from './breach';

/**
 * Disbursements against their `payout.debited` / `payout.refunded` events, for the merchants
 * whose digests disagreed. The ledger's debit moves a disbursement out of `funding` in its
 * own transaction: to `pending` (debited) or `refused` (not). So `pending`, `success` and
 * `failed` each have exactly one debit of amount + fee, `failed` also one refund of the same,
 * and `refused` / `funding` none; `reversed` (a success the bank returned) one debit and one
 * `payout.reversed` of the same back. A payout reference that is not a UUID is not a disbursement
 * (a manual correction, a test): its refund must still equal its debit.
 */
export function payoutBreaches(
  tx: TransactionClient,
  merchantIds: number[],
  graceSeconds: number,
): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH d AS (
      SELECT id, merchant_id, status, amount, fee, updated_at FROM disbursements WHERE merchant_id = ANY(${merchantIds}::int[])
    ), g AS (
      SELECT reference, merchant_id,
             min(id) FILTER (WHERE type = 'payout.debited') AS debit_id,
             sum(available_delta) FILTER (WHERE type = 'payout.debited') AS debit_available,
             sum(pending_delta) FILTER (WHERE type = 'payout.debited') AS debit_pending,
             min(id) FILTER (WHERE type = 'payout.refunded') AS refund_id,
             sum(available_delta) FILTER (WHERE type = 'payout.refunded') AS refund_available,
             sum(pending_delta) FILTER (WHERE type = 'payout.refunded') AS refund_pending,
             min(id) FILTER (WHERE type = 'payout.reversed') AS reversal_id,
             sum(available_delta) FILTER (WHERE type = 'payout.reversed') AS reversal_available
        FROM ledger_events
       WHERE type IN ('payout.debited', 'payout.refunded', 'payout.reversed') AND merchant_id = ANY(${merchantIds}::int[])
       GROUP BY reference, merchant_id
    ), j AS (
      SELECT d.id AS d_id, d.merchant_id AS d_merchant, d.status, d.amount + d.fee AS total, d.updated_at, g.*
        FROM d FULL JOIN g ON g.reference = d.id::text
       WHERE d.id IS NULL OR d.status = 'funding' OR g.merchant_id <> d.merchant_id
          OR (g.debit_id IS NOT NULL) <> (d.status IN ('pending', 'success', 'failed', 'reversed'))
          OR (g.refund_id IS NOT NULL) <> (d.status = 'failed')
          OR (g.reversal_id IS NOT NULL) <> (d.status = 'reversed') OR g.reversal_available <> d.amount + d.fee
          OR g.debit_available <> -(d.amount + d.fee) OR g.debit_pending <> 0
          OR g.refund_available <> d.amount + d.fee OR g.refund_pending <> 0
    ), k AS (
      -- only for events without a disbursement row: is their reference a disbursement id at all?
      SELECT j.*, CASE WHEN j.d_id IS NULL THEN j.reference ~ ${UUID_PATTERN} END AS names_row,
             (SELECT o.merchant_id FROM disbursements o WHERE j.d_id IS NULL AND o.id = ${refUuid(Prisma.sql`j.reference`)}) AS other_merchant
        FROM j
    )
    SELECT c.* FROM k CROSS JOIN LATERAL (VALUES
      ('payout.debit_missing', 'disbursements', k.d_id::text, k.d_merchant,
       '1 payout.debited event of available -' || k.total || ' (disbursement is ' || k.status || ')', 'none',
       k.d_id IS NOT NULL AND k.status IN ('pending', 'success', 'failed', 'reversed') AND k.debit_id IS NULL, false),
      ('payout.debit_amount', 'ledger_events', k.debit_id::text, k.merchant_id,
       'available -' || k.total || ', pending 0 (disbursement ' || k.d_id || ': amount + fee)',
       'available ' || k.debit_available || ', pending ' || k.debit_pending,
       k.status IN ('pending', 'success', 'failed', 'reversed') AND k.debit_id IS NOT NULL AND (k.debit_available <> -k.total OR k.debit_pending <> 0), false),
      ('payout.debit_unexpected', 'ledger_events', k.debit_id::text, k.merchant_id,
       'no debit: disbursement ' || k.d_id || ' is ' || k.status, 'payout.debited of available ' || k.debit_available,
       k.debit_id IS NOT NULL AND k.status IN ('refused', 'funding'), false),
      ('payout.refund_missing', 'disbursements', k.d_id::text, k.d_merchant,
       '1 payout.refunded event of available +' || k.total || ' (disbursement failed)', 'none',
       k.status = 'failed' AND k.refund_id IS NULL, k.updated_at > now() - make_interval(secs => ${graceSeconds})),
      ('payout.refund_amount', 'ledger_events', k.refund_id::text, k.merchant_id,
       'available +' || COALESCE(k.total, -k.debit_available) || ', pending 0 (' || COALESCE('disbursement ' || k.d_id || ': amount + fee', 'its debit') || ')',
       'available ' || k.refund_available || ', pending ' || k.refund_pending,
       k.refund_id IS NOT NULL AND (k.status = 'failed' AND (k.refund_available <> k.total OR k.refund_pending <> 0)
                                    OR k.d_id IS NULL AND NOT k.names_row AND (k.refund_available <> -k.debit_available OR k.refund_pending <> 0)), false),
      ('payout.refund_unexpected', 'ledger_events', k.refund_id::text, k.merchant_id,
       COALESCE('no refund: disbursement ' || k.d_id || ' is ' || k.status, 'no refund without a payout.debited of ' || k.reference),
       'payout.refunded of available ' || k.refund_available,
       k.refund_id IS NOT NULL AND (k.status <> 'failed' OR k.d_id IS NULL AND NOT k.names_row AND k.debit_id IS NULL), false),
      ('payout.reversal_missing', 'disbursements', k.d_id::text, k.d_merchant,
       '1 payout.reversed event of available +' || k.total || ' (disbursement reversed)', 'none',
       k.status = 'reversed' AND k.reversal_id IS NULL, k.updated_at > now() - make_interval(secs => ${graceSeconds})),
      ('payout.reversal_amount', 'ledger_events', k.reversal_id::text, k.merchant_id,
       'available +' || k.total || ' (disbursement ' || k.d_id || ': amount + fee)', 'available ' || k.reversal_available,
       k.reversal_id IS NOT NULL AND k.status = 'reversed' AND k.reversal_available <> k.total, false),
      ('payout.reversal_unexpected', 'ledger_events', k.reversal_id::text, k.merchant_id,
       COALESCE('no reversal: disbursement ' || k.d_id || ' is ' || k.status, 'no reversal without its disbursement'),
       'payout.reversed of available ' || k.reversal_available,
       k.reversal_id IS NOT NULL AND (k.status IS DISTINCT FROM 'reversed') AND (k.d_id IS NOT NULL OR k.names_row), false),
      ('payout.debit_amount', 'ledger_events', k.debit_id::text, k.merchant_id,
       'pending 0, available below 0 (a debit)', 'available ' || k.debit_available || ', pending ' || k.debit_pending,
       k.d_id IS NULL AND NOT k.names_row AND k.debit_id IS NOT NULL AND (k.debit_pending <> 0 OR k.debit_available >= 0), false),
      ('payout.event_merchant', 'ledger_events', COALESCE(k.debit_id, k.refund_id, k.reversal_id)::text, k.merchant_id,
       'merchant ' || COALESCE(k.d_merchant, k.other_merchant) || ' (the merchant of disbursement ' || k.reference || ')', 'merchant ' || k.merchant_id,
       k.merchant_id <> COALESCE(k.d_merchant, k.other_merchant), false),
      ('event.orphan', 'ledger_events', COALESCE(k.debit_id, k.refund_id, k.reversal_id)::text, k.merchant_id,
       'disbursement ' || k.reference, 'no such disbursement',
       k.d_id IS NULL AND k.names_row AND k.other_merchant IS NULL, false),
      ('payout.undecided', 'disbursements', k.d_id::text, k.d_merchant,
       'a ledger decision on its debit (payout.debited, or refused for insufficient balance)',
       'status funding since ' || to_char(k.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       k.status = 'funding', k.updated_at > now() - make_interval(secs => ${graceSeconds}))
    ) AS c("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE c.bad`;
}
