import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  DisbursementRepository,
  PayoutRepository,
  PgOutboxStore,
  RECON_COPY_SETTINGS,
  SETTLEMENT_SCAN_STATEMENT,
  TOKEN_STATEMENTS,
  WebhookDeliveryRepository,
} from '@pay/persistence';

/**
 * The hot statements of the services: those of the money path's repositories as they send them
 * (`sent`: the gateway's inquiry and transfer, the payout's claim and complete, the relay, the
 * callbacks' claim; the token lookups and the settlement scan imported), the others as written in
 * their repositories on 2026-11-25 (copies: a changed one belongs here too). Each
 * takes the parameters picked from the data and the run number (1, 2, 3: a write inserts fresh
 * keys on every run, since the runs share one rolled-back transaction).
 */
export interface HotQuery {
  name: string;
  /** Run first in the same transaction, as the service does (e.g. SET LOCAL) */
  setup?: string;
  statement(
    p: Record<string, unknown>,
    run: number,
  ): { text: string; values: unknown[] } | Promise<{ text: string; values: unknown[] }>;
}

/** The export's transaction runs under RECON_COPY_SETTINGS (index order, no parallel workers): its statements' plans too. */
const RECON_SETUP = `SELECT ${Object.entries(RECON_COPY_SETTINGS)
  .map(([name, value]) => `set_config('${name}', '${value}', true)`)
  .join(', ')}`;

const q = (name: string, text: string, values: (p: Record<string, unknown>, run: number) => unknown[]): HotQuery => ({
  name,
  statement: (p, run) => ({ text, values: values(p, run) }),
});

/**
 * The first statement a repository method sends, taken as it sends it: the method runs against a
 * stand-in pool that records the statement and answers no rows (the method may then fail; only
 * the statement matters). So the plan checked is the service's own statement, never a copy.
 */
async function captured(send: (pool: Pool) => Promise<unknown>): Promise<{ text: string; values: unknown[] }> {
  let statement: { text: string; values: unknown[] } | undefined;
  const recorder = {
    // A plain string is a transaction's BEGIN (and its lock) or COMMIT: not the statement.
    query: async (config: string | { text: string; values?: unknown[] }) => {
      if (typeof config !== 'string') statement ??= { text: config.text, values: config.values ?? [] };
      return { rows: [], rowCount: 0 };
    },
    on: () => recorder,
    // A transaction's connection (inTransaction): the same recorder.
    connect: async () => recorder,
    release: () => undefined,
  } as unknown as Pool;
  await send(recorder).catch(() => undefined);
  if (!statement) throw new Error('the repository method sent no statement');
  return statement;
}

/** A hot statement as its repository sends it (see captured). */
const sent = (
  name: string,
  send: (pool: Pool, p: Record<string, unknown>, run: number) => Promise<unknown>,
): HotQuery => ({
  name,
  statement: (p, run) => captured((pool) => send(pool, p, run)),
});

export const HOT_QUERIES: HotQuery[] = [
  // apps/gateway: every request (libs/persistence/src/merchants/merchant-auth.repository.ts)
  q('gateway: token lookup', TOKEN_STATEMENTS.byToken, (p) => [p.tokenHash]),
  q('gateway: token lookup with the balance (balance GET)', TOKEN_STATEMENTS.byTokenWithBalance, (p) => [p.tokenHash]),
  q(
    'gateway: balance if the token is valid (balance GET, token in the auth cache)',
    TOKEN_STATEMENTS.balanceIfTokenValid,
    (p) => [p.tokenHash],
  ),
  q('gateway: balance read', 'SELECT available, pending FROM balances WHERE merchant_id = $1', (p) => [p.merchantId]),
  // libs/persistence/src/disbursements/disbursement.repository.ts, as the repository sends them
  sent('gateway: account inquiry (token, live merchantTrxId, fee, insert)', (pool, p, run) =>
    new DisbursementRepository(pool).recordInquiry(
      {
        platformTrxId: `DBPLANSI${run}`,
        merchantId: p.merchantId as number,
        merchantTrxId: `PLANSI-${run}`,
        bankCode: 'BCA',
        accountNo: '1234567890',
        accountName: 'Budi',
        amount: 1_000_000n,
        expiresAt: new Date(Date.now() + 600_000),
      },
      p.tokenId as string,
    ),
  ),
  sent('gateway: transfer (token, checks, funding + debit command)', (pool, p, run) =>
    new DisbursementRepository(pool).recordTransfer(
      {
        id: randomUUID(),
        merchantId: p.merchantId as number,
        merchantTrxId: `PLANST-${run}`,
        platformTrxId: p.inquiryId as string,
        bankCode: 'BCA',
        accountNo: '1234567890',
        accountName: 'Budi',
        amount: 1_000_000n,
        notifyUrl: 'http://127.0.0.1:9/callback',
      },
      {
        type: 'payout.debit',
        commandId: `payout.debit:plans-${run}`,
        merchantId: p.merchantId as number,
        issuedAt: new Date().toISOString(),
        payoutId: randomUUID(),
      },
      p.tokenId as string,
    ),
  ),
  q('gateway: disbursement get', 'SELECT * FROM disbursements WHERE id = $1::uuid', (p) => [p.disbursementId]),
  q(
    'gateway: findLive (merchantTrxId)',
    `SELECT * FROM disbursements WHERE merchant_id = $1 AND merchant_trx_id = $2 AND status <> 'refused' LIMIT 1`,
    (p) => [p.merchantId, p.disbursementTrxId],
  ),
  q('gateway: prior decision', 'SELECT result FROM ledger_commands WHERE command_id = $1', (p) => [p.commandId]),
  // libs/ledger-core/src/ledger/ledger.service.ts and its handlers
  q(
    'ledger: balance lock',
    `SELECT available, pending, last_seq, nextval('ledger_events_id_seq') AS next_event_id FROM balances WHERE merchant_id = $1 FOR UPDATE`,
    (p) => [p.merchantId],
  ),
  q(
    'ledger: prior decision + existing event',
    `
    SELECT (SELECT result FROM ledger_commands WHERE command_id = $1) AS prior,
           (SELECT command_id FROM ledger_events WHERE merchant_id = $2 AND type = $3 AND reference = $4) AS existing`,
    (p) => [p.commandId, p.merchantId, 'payout.debited', p.disbursementId],
  ),
  q(
    'ledger: refund finds its debit',
    `SELECT * FROM ledger_events WHERE merchant_id = $1 AND type = 'payout.debited' AND reference = $2`,
    (p) => [p.merchantId, p.disbursementId],
  ),
  q(
    'ledger: record payin (pay-in row)',
    `SELECT id, merchant_id, amount, fee, status, ledger_event_id FROM payins WHERE id = $1::uuid`,
    (p) => [p.payinId],
  ),
  q(
    'ledger: event + projection + decision + outbox',
    `
    WITH event AS (
      INSERT INTO ledger_events (id, merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload,
                                 posting_accounts, posting_amounts)
      VALUES (nextval('ledger_events_id_seq'), $1, $2::bigint + $3, 'plans:' || $3, 'payout.debited', 'plans-' || $3, -1, 0, 0, 0, '{}'::jsonb,
              ARRAY['merchant:' || $1::int || ':available', 'payouts:payable'], ARRAY[1, -1]::bigint[])
    ), projection AS (
      UPDATE balances SET available = available - 1, last_seq = $2::bigint + $3, updated_at = now() WHERE merchant_id = $1
    ), decided AS (
      INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result) VALUES ('plans:' || $3, $1, 'payout.debit', 'applied', currval('ledger_events_id_seq'), '{}'::jsonb)
    )
    INSERT INTO outbox (topic, key, payload) VALUES ('ledger.events.v1', $1::text, '{}'::jsonb)`,
    (p, run) => [p.merchantId, p.lastSeq, run],
  ),
  // libs/persistence/src/payouts/payout.repository.ts, as the repository sends them
  sent('payout: claim a round (and record its submissions)', (pool) =>
    new PayoutRepository(pool).claimDue(64, 30_000, { name: 'sandbox', live: false }),
  ),
  sent('payout: complete a round (status, event, refund, callback)', async (pool, p) => {
    const row = p.disbursement as Parameters<PayoutRepository['complete']>[0][number]['disbursement'];
    return new PayoutRepository(pool).complete([
      { kind: 'success', disbursement: row, at: new Date(), railReference: 'SBXPLANS' },
    ]);
  }),
  // libs/persistence/src/outbox/pg-outbox.store.ts
  q(
    'outbox: pendingTopics',
    `
    WITH RECURSIVE t(topic) AS (
      (SELECT topic FROM outbox WHERE published_at IS NULL ORDER BY topic LIMIT 1)
      UNION ALL
      SELECT (SELECT o.topic FROM outbox o WHERE o.published_at IS NULL AND o.topic > t.topic ORDER BY o.topic LIMIT 1) FROM t WHERE t.topic IS NOT NULL
    )
    SELECT topic FROM t WHERE topic IS NOT NULL`,
    () => [],
  ),
  // The relay's one statement (lock, batch, marking), as PgOutboxStore sends it after BEGIN.
  sent('outbox: relay a batch', (pool) => {
    const inTransaction = {
      ...pool,
      connect: async () => ({ query: pool.query, release: () => undefined, on: () => undefined }),
    } as unknown as Pool;
    return new PgOutboxStore(inTransaction).relayBatch('ledger.commands.v1', 256, async () => undefined);
  }),
  q(
    'outbox: backlog metrics',
    `SELECT topic, count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM outbox WHERE published_at IS NULL GROUP BY topic`,
    () => [],
  ),
  sent('payout: pending metrics', (pool) => new PayoutRepository(pool).pendingSummary()),
  // libs/persistence/src/webhooks/webhook-delivery.repository.ts
  q(
    'workers: webhook create',
    `
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, created_at, updated_at)
    VALUES (gen_random_uuid(), $1, 'disbursement.success', $2, NULL, 'http://127.0.0.1:9/callback', '{}', 'pending', now(), now(), now())
    ON CONFLICT (event_id) DO NOTHING RETURNING *`,
    (p, run) => [`plans.${run}.success`, p.merchantId],
  ),
  sent('workers: claim due callbacks (dispatcher round)', (pool) =>
    new WebhookDeliveryRepository(pool).claimDue(new Date(), 20, 40_000, 5),
  ),
  q(
    'workers: webhook claim one',
    `
    UPDATE webhook_deliveries SET status = 'delivering', lease_until = now() + interval '30 seconds', attempt_count = attempt_count + 1, updated_at = now()
     WHERE id = $1::uuid AND ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'delivering' AND lease_until < now())) RETURNING *`,
    (p) => [p.webhookId],
  ),
  // libs/persistence/src/payins/payin.repository.ts
  q('gateway: payin inquiry', 'SELECT * FROM payins WHERE merchant_id = $1 AND merchant_trx_id = $2', (p) => [
    p.merchantId,
    p.payinTrxId,
  ]),
  q('gateway: payin notification lock', 'SELECT id::text FROM payins WHERE platform_trx_id = $1 FOR UPDATE', (p) => [
    p.payinPlatformTrxId,
  ]),
  // libs/persistence/src/payins/payin-expiry.repository.ts: every PAYIN_EXPIRY_SCAN_INTERVAL_MS, mostly finding nothing
  q(
    'workers: payin expiry scan',
    `SELECT id FROM payins WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT 500 FOR UPDATE SKIP LOCKED`,
    () => [],
  ),
  q(
    'gateway: payin record (new code)',
    `
    INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, expires_at)
    VALUES (gen_random_uuid(), $1, $2, $3, 1000000, 22000, 700, 15000, 'pending', now() + interval '15 minutes')`,
    (p, run) => [p.merchantId, `PLANS-${run}`, `QRPLANS${run}`],
  ),
  // libs/persistence/src/settlements/settlement-planner.ts: every scan (SETTLEMENT_SCAN_INTERVAL_MS), one statement over all merchants
  q('settlement scan: oldest unsettled pay-in of every merchant', SETTLEMENT_SCAN_STATEMENT, () => [null]),
  // then per merchant with a pay-in before its cut-off, in its planning transaction
  q(
    'settlement planner: already requested',
    `
    SELECT (SELECT COUNT(*) FROM settlements WHERE id = $1::uuid)
         + (SELECT COUNT(*) FROM ledger_commands WHERE command_id = $2)
         + (SELECT COUNT(*) FROM outbox WHERE topic = 'ledger.commands.v1' AND headers->>'message-id' = $2) AS n`,
    () => ['00000000-0000-0000-0000-000000000000', 'settlement.credit:plans'],
  ),
  q(
    'settlement planner: pay-ins due',
    `
    SELECT id::text FROM payins WHERE merchant_id = $1 AND status = 'success' AND settlement_id IS NULL AND ledger_event_id IS NOT NULL AND success_at < now()
     ORDER BY success_at, id`,
    (p) => [p.merchantId],
  ),
  // libs/persistence/src/recon/recon-export.repository.ts: a busy day of one merchant
  {
    ...q(
      'recon: totals',
      `
    SELECT now() AS as_of, COUNT(*)::text AS n, COALESCE(SUM(amount) FILTER (WHERE status = 'success'), 0)::text AS gross,
           COALESCE(SUM(fee) FILTER (WHERE status = 'success'), 0)::text AS fees
      FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3`,
      (p) => [p.reconMerchantId, p.reconFrom, p.reconTo],
    ),
    setup: RECON_SETUP,
  },
  {
    ...q(
      'recon: export rows (the COPY query)',
      `
    WITH merchant AS MATERIALIZED (SELECT name FROM merchants WHERE id = $1)
    SELECT p.merchant_trx_id, p.platform_trx_id, (SELECT name FROM merchant), p.status, p.amount, p.fee, p.fee_pct_milli, p.fee_fixed, p.created_at, p.success_at, p.rrn, p.issuer, p.nmid, p.settlement_id
      FROM payins p
     WHERE p.merchant_id = $1 AND p.created_at >= $2 AND p.created_at < $3 ORDER BY p.created_at, p.id`,
      (p) => [p.reconMerchantId, p.reconFrom, p.reconTo],
    ),
    setup: RECON_SETUP,
  },
  q(
    'recon: is the file stale',
    `SELECT COUNT(*) FROM payins WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 AND updated_at > now() - interval '1 hour'`,
    (p) => [p.reconMerchantId, p.reconFrom, p.reconTo],
  ),
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
  const m = await one<{ merchant_id: number; last_seq: string }>(
    'SELECT merchant_id, last_seq::text FROM balances ORDER BY last_seq DESC, merchant_id LIMIT 1',
  );
  const merchantId = m.merchant_id;
  const token = await one<{ token_hash: string }>('SELECT token_hash FROM api_tokens WHERE merchant_id = $1 LIMIT 1', [
    merchantId,
  ]);
  const d = await one<{ id: string; merchant_trx_id: string; platform_trx_id: string }>(
    `SELECT id::text, merchant_trx_id, platform_trx_id FROM disbursements WHERE merchant_id = $1 AND status = 'success' LIMIT 1`,
    [merchantId],
  );
  const command = await one<{ command_id: string }>(
    `SELECT command_id FROM ledger_commands WHERE merchant_id = $1 AND type = 'payout.debit' LIMIT 1`,
    [merchantId],
  );
  const payin = await one<{ id: string; merchant_trx_id: string; platform_trx_id: string }>(
    'SELECT id::text, merchant_trx_id, platform_trx_id FROM payins WHERE merchant_id = $1 LIMIT 1',
    [merchantId],
  );
  const outbox = await pool.query<{ id: string }>('SELECT id::text FROM outbox ORDER BY id DESC LIMIT 64');
  const webhook = await one<{ id: string }>('SELECT id::text FROM webhook_deliveries WHERE merchant_id = $1 LIMIT 1', [
    merchantId,
  ]);
  const tokenId = await one<{ id: string }>(
    'SELECT id::text FROM api_tokens WHERE merchant_id = $1 AND revoked_at IS NULL LIMIT 1',
    [merchantId],
  );
  const {
    rows: [disbursement],
  } = await pool.query(
    `SELECT d.*, m.name AS "merchantName" FROM disbursements d JOIN merchants m ON m.id = d.merchant_id WHERE d.id = $1::uuid`,
    [d.id],
  );
  const busy = await one<{ merchant_id: number; day: Date }>(
    `
    SELECT merchant_id, date_trunc('day', created_at AT TIME ZONE 'Asia/Jakarta') AT TIME ZONE 'Asia/Jakarta' AS day
      FROM payins WHERE merchant_id = $1 OR merchant_id = (SELECT merchant_id FROM payins ORDER BY created_at LIMIT 1)
     GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`,
    [merchantId],
  );
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
    tokenId: tokenId.id,
    // As the payout's claim returns it (the statement only reads its fields).
    disbursement: {
      id: disbursement.id,
      merchantId: disbursement.merchant_id,
      merchantName: disbursement.merchantName,
      merchantTrxId: disbursement.merchant_trx_id,
      platformTrxId: disbursement.platform_trx_id,
      bankCode: disbursement.bank_code,
      accountNo: disbursement.account_no,
      accountName: disbursement.account_name,
      amount: BigInt(disbursement.amount),
      fee: BigInt(disbursement.fee),
      notifyUrl: disbursement.notify_url,
      logId: disbursement.log_id,
      priorSubmittedAt: null,
    },
    reconMerchantId: busy.merchant_id,
    reconFrom: busy.day,
    reconTo: new Date(busy.day.getTime() + 86_400_000),
  };
}
