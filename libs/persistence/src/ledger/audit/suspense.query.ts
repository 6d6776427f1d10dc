import type { TransactionClient } from '../../client/prisma';
import type { BreachRow } from './breach';

interface SuspenseRow {
  balance: string;
  open: string;
  untied: string;
  untied_n: number;
  breaks: { id: string; code: string; subject: string; reference: string; suspense: string; date: string }[];
}

/**
 * `suspense` against the reconciliation's breaks (docs/books.md): its balance should be the shares of
 * the breaks still open whose batch's suspense booking the ledger applied, plus the manual adjustments
 * of suspense that no resolved break is tied to (the break's resolution names the adjustment, or the
 * adjustment's reason names the break). Not an equality the books can hold the operators to (a break
 * may be resolved without moving its money, a re-run may find a share other than the one booked), so
 * these are warnings, never breaches: each open break holding money in suspense, and a balance the
 * breaks and the adjustments do not explain. Platform-wide: only an unscoped audit reads it.
 */
export async function suspenseFindings(tx: TransactionClient): Promise<BreachRow[]> {
  const [row] = await tx.$queryRaw<SuspenseRow[]>`
    WITH open_breaks AS (
      SELECT b.id::text AS id, b.code, b.subject, b.reference, b.suspense::text AS suspense, r.date::text AS date,
             b.suspense AS share, b.first_seen_at
        FROM recon_breaks b JOIN recon_runs r ON r.id = b.run_id
       WHERE b.status = 'open' AND b.suspense <> 0
         AND EXISTS (SELECT 1 FROM recon_bookings k
                       JOIN ledger_commands c ON c.command_id = k.command_id AND c.outcome = 'applied'
                      WHERE k.kind = 'books.adjust' AND k.reference = b.batch_id)
    ), resolved AS (
      SELECT id::text AS id, lower(resolution) AS note FROM recon_breaks WHERE status = 'resolved'
    ), manual AS (
      SELECT a.id, sum((p ->> 'amount')::bigint) AS amount
        FROM adjustments a
        JOIN ledger_commands c ON c.command_id = 'books.adjust:' || a.id::text AND c.outcome = 'applied'
        CROSS JOIN LATERAL jsonb_array_elements(a.postings) p
       WHERE p ->> 'account' = 'suspense'
         AND NOT EXISTS (SELECT 1 FROM resolved r
                          WHERE strpos(r.note, a.id::text) > 0 OR strpos(lower(a.reason), r.id) > 0)
       GROUP BY a.id
    )
    SELECT (SELECT coalesce(sum(balance), 0) FROM account_balances WHERE code = 'suspense')::text AS balance,
           (SELECT coalesce(sum(share), 0) FROM open_breaks)::text AS open,
           (SELECT coalesce(sum(amount), 0) FROM manual)::text AS untied,
           (SELECT count(*) FROM manual)::int AS untied_n,
           coalesce((SELECT json_agg(o ORDER BY o.first_seen_at, o.id) FROM open_breaks o), '[]') AS breaks`;
  const warnings: BreachRow[] = row.breaks.map((b) => ({
    check: 'books.suspense_open_break',
    tbl: 'recon_breaks',
    id: b.id,
    merchant_id: null,
    expected: 'its share moved out of suspense by an adjustment, then the break resolved',
    found: `${b.code} ${b.subject} ${b.reference} of ${b.date} open, ${b.suspense} in suspense`,
    in_flight: false,
  }));
  const explained = BigInt(row.open) + BigInt(row.untied);
  if (BigInt(row.balance) !== explained)
    warnings.push({
      check: 'books.suspense_unexplained',
      tbl: 'accounts',
      id: 'suspense',
      merchant_id: null,
      expected: `balance ${explained} (open breaks' shares ${row.open} + ${row.untied_n} adjustment(s) tied to no resolved break ${row.untied})`,
      found: `balance ${row.balance}`,
      in_flight: false,
    });
  return warnings;
}
