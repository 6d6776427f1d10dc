import type { PoolClient } from 'pg';

/**
 * The history lists' bench data, set-based (INSERT ... SELECT over generate_series): for each
 * merchant `rows` pay-ins, disbursements (with their inquiries) and ledger events, created one
 * every 30 seconds up to now (a million rows span about a year). Pay-ins: 94 % success, 5 %
 * failed, 1 % pending (expired); disbursements: 90 % success, 6 % failed, 3 % refused, 1 %
 * pending; events: per ten, eight `payin.recorded`, a `settlement.credited` and a
 * `payout.debited`, each with the balance it leaves (the running sum), as the ledger writes it.
 */
export async function seedLists(
  client: PoolClient,
  merchantId: number,
  rows: number,
  firstEventId: number,
): Promise<void> {
  const at = (g: string) => `now() - make_interval(secs => (${rows} - ${g}) * 30)`;
  const payinId = (g: string) => `md5('lp:${merchantId}:' || ${g})::uuid`;
  const payoutId = (g: string) => `md5('ld:${merchantId}:' || ${g})::uuid`;
  await client.query(`
    INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, rrn, success_at, expires_at, nmid, created_at)
    SELECT ${payinId('g')}, ${merchantId}, 'LP-${merchantId}-' || g, 'QRL${merchantId}X' || g, 1000000 + (g % 50) * 20000, 22000, 700, 15000, st,
           CASE WHEN st = 'success' THEN lpad(g::text, 12, '0') END, CASE WHEN st = 'success' THEN ${at('g')} END, ${at('g')} + interval '15 minutes', 'ID1234567890', ${at('g')}
      FROM generate_series(1, ${rows}) g, LATERAL (SELECT CASE WHEN g % 100 = 7 THEN 'pending' WHEN g % 20 = 3 THEN 'failed' ELSE 'success' END AS st) s`);
  await client.query(`
    INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at, created_at)
    SELECT 'DBL${merchantId}X' || g, ${merchantId}, 'LD-${merchantId}-' || g, 'BCA', '1234567890', 'Budi', 500000 + (g % 40) * 10000, 250000, ${at('g')}, ${at('g')}
      FROM generate_series(1, ${rows}) g`);
  await client.query(`
    INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, success_at, created_at)
    SELECT ${payoutId('g')}, ${merchantId}, 'LD-${merchantId}-' || g, 'DBL${merchantId}X' || g, 'BCA', '1234567890', 'Budi', 500000 + (g % 40) * 10000, 250000,
           'http://merchant.example/callback', st, CASE WHEN st = 'success' THEN ${at('g')} END, ${at('g')}
      FROM generate_series(1, ${rows}) g,
           LATERAL (SELECT CASE WHEN g % 100 = 11 THEN 'pending' WHEN g % 100 IN (5, 25, 45) THEN 'refused' WHEN g % 100 IN (1, 17, 33, 49, 65, 81) THEN 'failed' ELSE 'success' END AS st) s`);
  // Per ten events: eight pay-ins recorded (pending), one settlement of 8,000,000 (pending to available), one disbursement debited.
  // The lists read events, not the books: written without postings, the books check stepping aside.
  await client.query('ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_books');
  await client.query(`
    INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload, occurred_at)
    SELECT ${firstEventId} + g, ${merchantId}, g, type || ':' || ref, type, ref, a, p, sum(a) OVER w, sum(p) OVER w, '{}'::jsonb, ${at('g')}
      FROM generate_series(1, ${rows}) g,
           LATERAL (SELECT CASE g % 10 WHEN 0 THEN 'settlement.credited' WHEN 5 THEN 'payout.debited' ELSE 'payin.recorded' END AS type,
                           CASE g % 10 WHEN 0 THEN md5('ls:${merchantId}:' || g)::uuid::text WHEN 5 THEN ${payoutId('g')}::text ELSE ${payinId('g')}::text END AS ref,
                           CASE g % 10 WHEN 0 THEN 8000000 WHEN 5 THEN -(500000 + (g % 40) * 10000 + 250000) ELSE 0 END AS a,
                           CASE g % 10 WHEN 0 THEN -8000000 WHEN 5 THEN 0 ELSE 1000000 + (g % 50) * 20000 - 22000 END AS p) e
    WINDOW w AS (ORDER BY g)`);
  await client.query('ALTER TABLE ledger_events ENABLE TRIGGER ledger_events_books');
  await client.query(`
    UPDATE balances b SET available = e.available_after, pending = e.pending_after, last_seq = e.seq
      FROM ledger_events e WHERE b.merchant_id = ${merchantId} AND e.merchant_id = ${merchantId} AND e.seq = ${rows}`);
}
