import type { PrismaClient } from '../client/prisma';

export interface BalanceMismatch {
  merchantId: number;
  field: 'available' | 'pending' | 'last_seq' | 'seq_gap' | 'pending_vs_payins';
  projection: string;
  expected: string;
}

export interface VerifyReport {
  merchantsChecked: number;
  eventsChecked: number;
  mismatches: BalanceMismatch[];
}

interface Row {
  merchant_id: number;
  proj_available: bigint;
  proj_pending: bigint;
  proj_last_seq: bigint;
  ev_available: bigint;
  ev_pending: bigint;
  ev_max_seq: bigint;
  ev_count: bigint;
  payins_pending: bigint;
}

/**
 * Rebuilds every merchant's balance from ledger_events and compares it with the projection:
 * available and pending (sums of the deltas), last_seq, gap-free sequence numbers, and
 * pending against spec rule 2.3.1 (net of recorded, unsettled, successful pay-ins).
 */
export async function verifyLedger(prisma: PrismaClient): Promise<VerifyReport> {
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT m.id AS merchant_id,
           COALESCE(b.available, 0)::bigint AS proj_available,
           COALESCE(b.pending, 0)::bigint   AS proj_pending,
           COALESCE(b.last_seq, 0)::bigint  AS proj_last_seq,
           COALESCE(e.available, 0)::bigint AS ev_available,
           COALESCE(e.pending, 0)::bigint   AS ev_pending,
           COALESCE(e.max_seq, 0)::bigint   AS ev_max_seq,
           COALESCE(e.n, 0)::bigint         AS ev_count,
           COALESCE(p.net, 0)::bigint       AS payins_pending
      FROM merchants m
      LEFT JOIN balances b ON b.merchant_id = m.id
      LEFT JOIN (SELECT merchant_id, SUM(available_delta) AS available, SUM(pending_delta) AS pending,
                        MAX(seq) AS max_seq, COUNT(*) AS n
                   FROM ledger_events GROUP BY merchant_id) e ON e.merchant_id = m.id
      LEFT JOIN (SELECT merchant_id, SUM(amount - fee) AS net
                   FROM payins
                  WHERE status = 'success' AND settlement_id IS NULL AND ledger_event_id IS NOT NULL
                  GROUP BY merchant_id) p ON p.merchant_id = m.id
     ORDER BY m.id`;
  const mismatches: BalanceMismatch[] = [];
  let events = 0n;
  for (const r of rows) {
    events += r.ev_count;
    const check = (field: BalanceMismatch['field'], projection: bigint, expected: bigint) => {
      if (projection !== expected) mismatches.push({ merchantId: r.merchant_id, field, projection: projection.toString(), expected: expected.toString() });
    };
    check('available', r.proj_available, r.ev_available);
    check('pending', r.proj_pending, r.ev_pending);
    check('last_seq', r.proj_last_seq, r.ev_max_seq);
    check('seq_gap', r.ev_count, r.ev_max_seq);
    check('pending_vs_payins', r.proj_pending, r.payins_pending);
  }
  return { merchantsChecked: rows.length, eventsChecked: Number(events), mismatches };
}
