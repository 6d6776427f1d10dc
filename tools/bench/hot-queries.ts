import type { Pool } from 'pg';
import { SETTLEMENT_SCAN_STATEMENT, TOKEN_STATEMENTS } from '@pay/persistence';

/**
 * The hot statements of the services, as written in their repositories on 2026-11-25 (copies
 * where the services build theirs with the `sql` tag, so a changed statement belongs here too;
 * the token lookups and the settlement scan are imported as the services send them). Each
 * takes the parameters picked from the data and the run number (1, 2, 3: a write inserts fresh
 * keys on every run, since the runs share one rolled-back transaction).
 */
export interface HotQuery {
  name: string;
  /** Run first in the same transaction, as the service does (e.g. SET LOCAL) */
  setup?: string;
  statement(p: Record<string, unknown>, run: number): { text: string; values: unknown[] };
}

const q = (name: string, text: string, values: (p: Record<string, unknown>, run: number) => unknown[]): HotQuery => ({ name, statement: (p, run) => ({ text, values: values(p, run) }) });

export const HOT_QUERIES: HotQuery[] = [
  // apps/gateway: every request (libs/persistence/src/merchants/merchant-auth.repository.ts)
  q('gateway: token lookup', TOKEN_STATEMENTS.byToken, (p) => [p.tokenHash]),
  q('gateway: token lookup with the balance (balance GET)', TOKEN_STATEMENTS.byTokenWithBalance, (p) => [p.tokenHash]),
  q('gateway: balance read', 'SELECT available, pending FROM balances WHERE merchant_id = $1', (p) => [p.merchantId]),
  // libs/persistence/src/disbursements/disbursement.repository.ts
  q('gateway: inquiry insert', `
    INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
    VALUES ($1, $2, $3, 'BCA', '1234567890', 'Budi', 1000000, 250000, now() + interval '10 minutes') RETURNING *`,
  (p, run) => [`DBPLANS${run}`, p.merchantId, `PLANS-${run}`]),
  q('gateway: inquiry lookup', 'SELECT * FROM disbursement_inquiries WHERE platform_trx_id = $1 AND merchant_id = $2', (p) => [p.inquiryId, p.merchantId]),
  q('gateway: disbursement get', 'SELECT * FROM disbursements WHERE id = $1::uuid', (p) => [p.disbursementId]),
  q('gateway: findLive (merchantTrxId)', `SELECT * FROM disbursements WHERE merchant_id = $1 AND merchant_trx_id = $2 AND status <> 'refused' LIMIT 1`, (p) => [p.merchantId, p.disbursementTrxId]),
  q('gateway: findLiveByInquiry', `SELECT * FROM disbursements WHERE platform_trx_id = $1 AND status <> 'refused' LIMIT 1`, (p) => [p.inquiryId]),
  q('gateway: transfer (funding + debit command)', `
    WITH inquiry AS (
      INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
      VALUES ($1, $2, $3, 'BCA', '1234567890', 'Budi', 1000000, 250000, now() + interval '10 minutes') RETURNING platform_trx_id
    ), command AS (
      INSERT INTO outbox (topic, key, payload, headers) VALUES ('ledger.commands.v1', $2::text, '{"type":"payout.debit"}'::jsonb, '{}'::jsonb)
    )
    INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status)
    SELECT gen_random_uuid(), $2, $3, platform_trx_id, 'BCA', '1234567890', 'Budi', 1000000, 250000, 'http://127.0.0.1:9/callback', 'funding' FROM inquiry
    RETURNING *`, (p, run) => [`DBPLANSX${run}`, p.merchantId, `PLANSX-${run}`]),
  q('gateway: prior decision', 'SELECT result FROM ledger_commands WHERE command_id = $1', (p) => [p.commandId]),
  // libs/ledger-core/src/ledger/ledger.service.ts and its handlers
  q('ledger: balance lock', `SELECT available, pending, last_seq, nextval('ledger_events_id_seq') AS next_event_id FROM balances WHERE merchant_id = $1 FOR UPDATE`, (p) => [p.merchantId]),
  q('ledger: prior decision + existing event', `
    SELECT (SELECT result FROM ledger_commands WHERE command_id = $1) AS prior,
           (SELECT command_id FROM ledger_events WHERE merchant_id = $2 AND type = $3 AND reference = $4) AS existing`,
  (p) => [p.commandId, p.merchantId, 'payout.debited', p.disbursementId]),
  q('ledger: refund finds its debit', `SELECT * FROM ledger_events WHERE merchant_id = $1 AND type = 'payout.debited' AND reference = $2`, (p) => [p.merchantId, p.disbursementId]),
  q('ledger: record payin (pay-in row)', `SELECT id, merchant_id, amount, fee, status, ledger_event_id FROM payins WHERE id = $1::uuid`, (p) => [p.payinId]),
  q('ledger: event + projection + decision + outbox', `
    WITH event AS (
      INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload)
      VALUES (nextval('ledger_events_id_seq'), $1, $2::bigint + $3, 'plans:' || $3, 'payout.debited', 'plans-' || $3, -1, 0, 0, 0, '{}'::jsonb)
    ), projection AS (
      UPDATE balances SET available = available - 1, last_seq = $2::bigint + $3, updated_at = now() WHERE merchant_id = $1
    ), decided AS (
      INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result) VALUES ('plans:' || $3, $1, 'payout.debit', 'applied', currval('ledger_events_id_seq'), '{}'::jsonb)
    )
    INSERT INTO outbox (topic, key, payload) VALUES ('ledger.events.v1', $1::text, '{}'::jsonb)`, (p, run) => [p.merchantId, p.lastSeq, run]),
  // libs/persistence/src/payouts/payout.repository.ts
  q('payout: claimDue', `
    UPDATE disbursements SET lease_until = now() + make_interval(secs => 30), updated_at = now()
     WHERE id IN (
       SELECT id FROM disbursements
        WHERE status = 'pending' AND next_check_at <= now()
          AND (lease_until IS NULL OR lease_until < now())
          AND ($1::uuid IS NULL OR id = $1::uuid)
        ORDER BY next_check_at LIMIT 64 FOR UPDATE SKIP LOCKED)
    RETURNING *`, () => [null]),
  q('payout: complete', `UPDATE disbursements SET status = 'success', success_at = now(), lease_until = NULL, updated_at = now() WHERE id = $1::uuid AND status = 'pending'`, (p) => [p.disbursementId]),
  // libs/persistence/src/outbox/pg-outbox.store.ts
  q('outbox: pendingTopics', `
    WITH RECURSIVE t(topic) AS (
      (SELECT topic FROM outbox WHERE published_at IS NULL ORDER BY topic LIMIT 1)
      UNION ALL
      SELECT (SELECT o.topic FROM outbox o WHERE o.published_at IS NULL AND o.topic > t.topic ORDER BY o.topic LIMIT 1) FROM t WHERE t.topic IS NOT NULL
    )
    SELECT topic FROM t WHERE topic IS NOT NULL`, () => []),
  q('outbox: relayBatch', `
    SELECT id, topic, key, payload, headers FROM outbox
     WHERE (SELECT pg_try_advisory_xact_lock(1, hashtext($1::text))) AND topic = $1::text AND published_at IS NULL
     ORDER BY id LIMIT 256`, () => ['ledger.commands.v1']),
  q('outbox: mark published', 'UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])', (p) => [p.outboxIds]),
  q('outbox: backlog metrics', `SELECT topic, count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM outbox WHERE published_at IS NULL GROUP BY topic`, () => []),
  // libs/persistence/src/webhooks/webhook-delivery.repository.ts
  q('workers: webhook create', `
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, created_at, updated_at)
    VALUES (gen_random_uuid(), $1, 'disbursement.success', $2, NULL, 'http://127.0.0.1:9/callback', '{}', 'pending', now(), now(), now())
    ON CONFLICT (event_id) DO NOTHING RETURNING *`, (p, run) => [`plans.${run}.success`, p.merchantId]),
  q('workers: webhook due (dispatch claim)', `
    SELECT id, attempt_count AS "attemptCount" FROM webhook_deliveries
     WHERE (status = 'pending' AND next_attempt_at <= now()) OR (status = 'delivering' AND lease_until < now())
     ORDER BY next_attempt_at NULLS FIRST LIMIT 64`, () => []),
  q('workers: webhook claim one', `
    UPDATE webhook_deliveries SET status = 'delivering', lease_until = now() + interval '30 seconds', attempt_count = attempt_count + 1, updated_at = now()
     WHERE id = $1::uuid AND ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'delivering' AND lease_until < now())) RETURNING *`, (p) => [p.webhookId]),
  // libs/persistence/src/payins/payin.repository.ts
  q('gateway: payin inquiry', 'SELECT * FROM payins WHERE merchant_id = $1 AND merchant_trx_id = $2', (p) => [p.merchantId, p.payinTrxId]),
  q('gateway: payin notification lock', 'SELECT id::text FROM payins WHERE platform_trx_id = $1 FOR UPDATE', (p) => [p.payinPlatformTrxId]),
  // libs/persistence/src/payins/payin-expiry.repository.ts: every PAYIN_EXPIRY_SCAN_INTERVAL_MS, mostly finding nothing
  q('workers: payin expiry scan', `SELECT id FROM payins WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT 500 FOR UPDATE SKIP LOCKED`, () => []),
  q('gateway: payin record (new code)', `
    INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, expires_at)
    VALUES (gen_random_uuid(), $1, $2, $3, 1000000, 22000, 700, 15000, 'pending', now() + interval '15 minutes')`, (p, run) => [p.merchantId, `PLANS-${run}`, `QRPLANS${run}`]),
  // libs/persistence/src/settlements/settlement-planner.ts: every scan (SETTLEMENT_SCAN_INTERVAL_MS), one statement over all merchants
  q('settlement scan: oldest unsettled pay-in of every merchant', SETTLEMENT_SCAN_STATEMENT, () => [null]),
  // then per merchant with a pay-in before its cut-off, in its planning transaction
  q('settlement planner: already requested', `
    SELECT (SELECT COUNT(*) FROM settlements WHERE id = $1::uuid)
         + (SELECT COUNT(*) FROM ledger_commands WHERE command_id = $2)
         + (SELECT COUNT(*) FROM outbox WHERE topic = $3 AND headers->>'message-id' = $2) AS n`,
  () => ['00000000-0000-0000-0000-000000000000', 'settlement.credit:plans', 'ledger.commands.v1']),
  q('settlement planner: pay-ins due', `
    SELECT id::text FROM payins WHERE merchant_id = $1 AND status = 'success' AND settlement_id IS NULL AND ledger_event_id IS NOT NULL AND success_at < now()
     ORDER BY success_at, id`, (p) => [p.merchantId]),
  // libs/persistence/src/recon/recon-export.repository.ts: a busy day of one merchant
  q('recon: totals', `
    SELECT now() AS as_of, COUNT(*)::text AS n, COALESCE(SUM(amount) FILTER (WHERE status = 'success'), 0)::text AS gross,
           COALESCE(SUM(fee) FILTER (WHERE status = 'success'), 0)::text AS fees
      FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3`, (p) => [p.reconMerchantId, p.reconFrom, p.reconTo]),
  {
    ...q('recon: export rows (the COPY query)', `
    WITH merchant AS MATERIALIZED (SELECT name FROM merchants WHERE id = $1)
    SELECT p.merchant_trx_id, p.platform_trx_id, (SELECT name FROM merchant), p.status, p.amount, p.fee, p.fee_pct_milli, p.fee_fixed, p.created_at, p.success_at, p.rrn, p.issuer, p.nmid, p.settlement_id
      FROM payins p
     WHERE p.merchant_id = $1 AND p.created_at >= $2 AND p.created_at < $3 ORDER BY p.created_at, p.id`, (p) => [p.reconMerchantId, p.reconFrom, p.reconTo]),
    setup: 'SET LOCAL enable_sort = off',
  },
  q('recon: is the file stale', `SELECT COUNT(*) FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 AND updated_at > now() - interval '1 hour'`,
    (p) => [p.reconMerchantId, p.reconFrom, p.reconTo]),
];

/**
 * Parameters from the data: the merchant with the longest history (the first one loaded), one of
 * its tokens, finished disbursements, pay-ins, decisions; the busiest day of pay-ins for recon.
 */
export async function pickParameters(pool: Pool): Promise<Record<string, unknown>> {
  const one = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T> => {
    const { rows } = await pool.query<T>(text, values);
    if (!rows[0]) throw new Error(`no data for: ${text}`);
    return rows[0];
  };
  const m = await one<{ merchant_id: number; last_seq: string }>('SELECT merchant_id, last_seq::text FROM balances ORDER BY last_seq DESC, merchant_id LIMIT 1');
  const merchantId = m.merchant_id;
  const token = await one<{ token_hash: string }>('SELECT token_hash FROM api_tokens WHERE merchant_id = $1 LIMIT 1', [merchantId]);
  const d = await one<{ id: string; merchant_trx_id: string; platform_trx_id: string }>(`SELECT id::text, merchant_trx_id, platform_trx_id FROM disbursements WHERE merchant_id = $1 AND status = 'success' LIMIT 1`, [merchantId]);
  const command = await one<{ command_id: string }>(`SELECT command_id FROM ledger_commands WHERE merchant_id = $1 AND type = 'payout.debit' LIMIT 1`, [merchantId]);
  const payin = await one<{ id: string; merchant_trx_id: string; platform_trx_id: string }>('SELECT id::text, merchant_trx_id, platform_trx_id FROM payins WHERE merchant_id = $1 LIMIT 1', [merchantId]);
  const outbox = await pool.query<{ id: string }>('SELECT id::text FROM outbox ORDER BY id DESC LIMIT 64');
  const webhook = await one<{ id: string }>('SELECT id::text FROM webhook_deliveries WHERE merchant_id = $1 LIMIT 1', [merchantId]);
  const busy = await one<{ merchant_id: number; day: Date }>(`
    SELECT merchant_id, date_trunc('day', created_at AT TIME ZONE 'Asia/Jakarta') AT TIME ZONE 'Asia/Jakarta' AS day
      FROM payins WHERE merchant_id = $1 OR merchant_id = (SELECT merchant_id FROM payins ORDER BY created_at LIMIT 1)
     GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`, [merchantId]);
  return {
    merchantId,
    lastSeq: m.last_seq,
    tokenHash: token.token_hash,
    disbursementId: d.id,
    disbursementTrxId: d.merchant_trx_id,
    inquiryId: d.platform_trx_id,
    commandId: command.command_id,
    payinId: payin.id,
    payinTrxId: payin.merchant_trx_id,
    payinPlatformTrxId: payin.platform_trx_id,
    outboxIds: outbox.rows.map((r) => r.id),
    webhookId: webhook.id,
    reconMerchantId: busy.merchant_id,
    reconFrom: busy.day,
    reconTo: new Date(busy.day.getTime() + 86_400_000),
  };
}
