import { bookHistory } from './books.seed';
/** Runs one SQL statement and returns the rows it changed (a PrismaClient is one). */
export interface SqlRunner {
  $executeRawUnsafe(query: string): PromiseLike<number>;
}

/** How one merchant's history is made up, for `perMerchant` ledger events (and `payouts` disbursements, when given). */
export function historyShape(perMerchant: number, payouts?: number) {
  const batch = 100; // pay-ins per settlement
  if (payouts === undefined) {
    const payins = Math.floor(perMerchant * 0.7);
    const settlements = Math.floor(payins / batch) - 1; // the last batch (and the rest) stays pending
    const failed = Math.floor((perMerchant - payins - settlements) / 12);
    const paid = perMerchant - payins - settlements - 2 * failed;
    return { batch, payins, unpaidPayins: Math.floor(payins / 10), settlements, paid, failed, refused: 50 };
  }
  // A fixed number of disbursements (5 % refused, 6 % failed and refunded); pay-ins and their settlements make up the rest.
  const refused = Math.round(payouts * 0.05);
  const failed = Math.round(payouts * 0.06);
  const paid = payouts - refused - failed;
  const rest = perMerchant - paid - 2 * failed;
  const settlements = Math.max(1, Math.floor(rest / (batch + 1)) - 1);
  const payins = rest - settlements;
  if (payins <= settlements * batch)
    throw new RangeError(`history shape: ${perMerchant} events cannot hold ${payouts} disbursements`);
  return { batch, payins, unpaidPayins: Math.floor(payins / 10), settlements, paid, failed, refused };
}

/**
 * A realistic ledger history written in bulk, as the services would have left it: per merchant,
 * successful pay-ins each with its `payin.recorded` event (and failed or expired ones without),
 * settlements of 100 pay-ins with their `settlement.credited` events, disbursements paid
 * (debit), failed (debit + refund) and refused (a rejected decision, no event), an applied
 * decision per event, balances equal to the fold, and each event's journal entry (books.seed.ts). Fees follow the merchant's rate rule.
 * Ids are derived (md5 of a name) so every statement can recompute the others' keys.
 */
export async function seedLedgerHistory(
  prisma: SqlRunner,
  merchantIds: number[],
  perMerchant: number,
  options: { payouts?: number; vacuum?: boolean } = {},
): Promise<void> {
  const h = historyShape(perMerchant, options.payouts);
  const K = perMerchant;
  const merchants = `unnest(ARRAY[${merchantIds.join(',')}]::int[]) WITH ORDINALITY AS t(m, mi)`;
  const payinAmount = (i: string) => `(1000000 + (${i} % 50) * 20000)::bigint`;
  const fee = (a: string) => `((${a} * 700 * 2 + 100000) / 200000 + 15000)`;
  const payoutAmount = (k: string) => `(500000 + (${k} % 40) * 10000)::bigint`;
  const eventId = (seq: string) => `(mi - 1) * ${K} + ${seq}`;
  const events = [
    `SELECT ${eventId('i')}, m, i, 'payin.record:' || pid, 'payin.recorded', pid, 0, a - ${fee('a')},
            jsonb_build_object('payinId', pid, 'amount', a::text, 'fee', ${fee('a')}::text, 'net', (a - ${fee('a')})::text)
       FROM ${merchants}, generate_series(1, ${h.payins}) i,
            LATERAL (SELECT ${payinAmount('i')} AS a, md5('payin:' || m || ':' || i)::uuid::text AS pid) x`,
    `SELECT ${eventId(`${h.payins} + j`)}, m, ${h.payins} + j, 'settlement.credit:' || s.id, 'settlement.credited', s.id::text, s.amount, -s.amount,
            jsonb_build_object('settlementId', s.id, 'amount', s.amount::text, 'gross', s.gross::text, 'fees', s.fees::text, 'cutoffAt', null,
                               'payinIds', (SELECT jsonb_agg(md5('payin:' || m || ':' || i)::uuid) FROM generate_series((j - 1) * ${h.batch} + 1, j * ${h.batch}) i))
       FROM ${merchants}, generate_series(1, ${h.settlements}) j, settlements s
      WHERE s.id = md5('settlement:' || m || ':' || j)::uuid`,
    `SELECT ${eventId(`${h.payins + h.settlements} + k`)}, m, ${h.payins + h.settlements} + k, 'payout.debit:' || did, 'payout.debited', did, -(a + 250000), 0,
            jsonb_build_object('payoutId', did, 'amount', a::text, 'fee', '250000', 'total', (a + 250000)::text)
       FROM ${merchants}, generate_series(1, ${h.paid + h.failed}) k,
            LATERAL (SELECT ${payoutAmount('k')} AS a, md5('disbursement:' || m || ':' || k)::uuid::text AS did) x`,
    `SELECT ${eventId(`${h.payins + h.settlements + h.failed} + k`)}, m, ${h.payins + h.settlements + h.failed} + k, 'payout.refund:' || did, 'payout.refunded', did, a + 250000, 0,
            jsonb_build_object('payoutId', did, 'refunded', (a + 250000)::text, 'reason', 'Rejected by the beneficiary bank')
       FROM ${merchants}, generate_series(${h.paid + 1}, ${h.paid + h.failed}) k,
            LATERAL (SELECT ${payoutAmount('k')} AS a, md5('disbursement:' || m || ':' || k)::uuid::text AS did) x`,
  ];
  const statements = [
    `INSERT INTO settlements (id, merchant_id, amount, payin_count, gross, fees)
     SELECT md5('settlement:' || m || ':' || j)::uuid, m, SUM(a - ${fee('a')}), COUNT(*), SUM(a), SUM(${fee('a')})
       FROM ${merchants}, generate_series(1, ${h.settlements}) j, generate_series((j - 1) * ${h.batch} + 1, j * ${h.batch}) i,
            LATERAL (SELECT ${payinAmount('i')} AS a) x
      GROUP BY m, j`,
    `INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, rrn, success_at,
                         ledger_event_id, settlement_id, nmid, issuer)
     SELECT md5('payin:' || m || ':' || i)::uuid, m, 'INV-' || m || '-' || i, 'QR' || m || 'X' || i, a, ${fee('a')}, 700, 15000,
            'success', lpad(i::text, 12, '0'), now(), ${eventId('i')},
            CASE WHEN i <= ${h.settlements * h.batch} THEN md5('settlement:' || m || ':' || ((i - 1) / ${h.batch} + 1))::uuid END, 'ID1234567890', 'OVO'
       FROM ${merchants}, generate_series(1, ${h.payins}) i, LATERAL (SELECT ${payinAmount('i')} AS a) x`,
    `INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, failure_reason)
     SELECT md5('payin:' || m || ':' || i)::uuid, m, 'INV-' || m || '-' || i, 'QR' || m || 'X' || i, 1000000, ${fee('1000000')}, 700, 15000,
            CASE WHEN i % 2 = 0 THEN 'failed' ELSE 'pending' END, CASE WHEN i % 2 = 0 THEN 'Payment failed' END
       FROM ${merchants}, generate_series(${h.payins + 1}, ${h.payins + h.unpaidPayins}) i`,
    `INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
     SELECT 'DB' || m || 'X' || k, m, 'PO-' || m || '-' || k, 'BCA', '1234567890', 'Budi', ${payoutAmount('k')}, 250000, now()
       FROM ${merchants}, generate_series(1, ${h.paid + h.failed + h.refused}) k`,
    `INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status,
                                refusal_reason, failure_reason, debited_at, success_at, failed_at)
     SELECT md5('disbursement:' || m || ':' || k)::uuid, m, 'PO-' || m || '-' || k, 'DB' || m || 'X' || k, 'BCA', '1234567890', 'Budi',
            ${payoutAmount('k')}, 250000, 'http://merchant.example/callback', st,
            CASE WHEN st = 'refused' THEN 'INSUFFICIENT_BALANCE' END, CASE WHEN st = 'failed' THEN 'Rejected by the beneficiary bank' END,
            CASE WHEN st <> 'refused' THEN now() END, CASE WHEN st = 'success' THEN now() END, CASE WHEN st = 'failed' THEN now() END
       FROM ${merchants}, generate_series(1, ${h.paid + h.failed + h.refused}) k,
            LATERAL (SELECT CASE WHEN k <= ${h.paid} THEN 'success' WHEN k <= ${h.paid + h.failed} THEN 'failed' ELSE 'refused' END AS st) y`,
    // The events, seq per merchant in this order: pay-ins, settlements, debits, refunds; each with
    // the balance it leaves (the running sum of the deltas, as the ledger writes it).
    // Written without their postings (the books check steps aside), then booked by the books migration's own backfill.
    `ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_books`,
    `INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, payload, available_after, pending_after)
     SELECT *, sum(available_delta) OVER w, sum(pending_delta) OVER w
       FROM (${events.join('\n UNION ALL \n')}) AS ev(id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, payload)
     WINDOW w AS (PARTITION BY merchant_id ORDER BY seq)`,
    `ALTER TABLE ledger_events ENABLE TRIGGER ledger_events_books`,
    `SELECT setval('ledger_events_id_seq', (SELECT max(id) FROM ledger_events))`,
    `INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result)
     SELECT command_id, merchant_id, replace(replace(replace(replace(type, 'payin.recorded', 'payin.record'), 'settlement.credited', 'settlement.credit'),
                                                     'payout.debited', 'payout.debit'), 'payout.refunded', 'payout.refund'),
            'applied', id, jsonb_build_object('outcome', 'applied', 'commandId', command_id, 'eventId', id::text, 'seq', seq::text)
       FROM ledger_events`,
    `INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, reason, result)
     SELECT 'payout.debit:' || md5('disbursement:' || m || ':' || k)::uuid, m, 'payout.debit', 'rejected', 'INSUFFICIENT_BALANCE',
            jsonb_build_object('outcome', 'rejected', 'reason', 'INSUFFICIENT_BALANCE')
       FROM ${merchants}, generate_series(${h.paid + h.failed + 1}, ${h.paid + h.failed + h.refused}) k`,
    `UPDATE balances b SET available = e.available, pending = e.pending, last_seq = e.last_seq
       FROM (SELECT merchant_id, SUM(available_delta) AS available, SUM(pending_delta) AS pending, MAX(seq) AS last_seq FROM ledger_events GROUP BY merchant_id) e
      WHERE e.merchant_id = b.merchant_id`,
  ];
  for (const statement of statements) await prisma.$executeRawUnsafe(statement);
  await bookHistory(prisma);
  if (options.vacuum !== false) await prisma.$executeRawUnsafe('VACUUM ANALYZE');
}
