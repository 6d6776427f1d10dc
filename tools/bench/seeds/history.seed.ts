import { Topic } from '@pay/contracts';
import { createPgPool } from '@pay/persistence';
import type { PoolClient } from 'pg';
import { historyShape, seedLedgerHistory } from './ledger-history.seed';

/** The tables the history fills in bulk: their keys and indexes are built after the rows, as pg_restore does. */
const BULK_TABLES = [
  'payins',
  'ledger_events',
  'ledger_commands',
  'disbursement_inquiries',
  'disbursements',
  'outbox',
  'webhook_deliveries',
  'webhook_attempts',
];

/**
 * 10,000 merchants with 500 ledger events and 100 disbursements each: 5,000,000 events and
 * 1,000,000 disbursements. The pay-ins follow from the events (every `payin.recorded` has its
 * pay-in, plus 10 % never paid): about 4.3 million. BENCH_HISTORY_MERCHANTS shrinks it (a
 * quick try of the mode); the shape per merchant stays.
 */
export const HISTORY_SCALE = {
  merchants: Number(process.env.BENCH_HISTORY_MERCHANTS ?? 10_000),
  eventsPerMerchant: 500,
  disbursementsPerMerchant: 100,
};

export interface HistoryLoad {
  seconds: number;
  merchants: number;
  events: number;
  payins: number;
  disbursements: number;
  outbox: number;
  webhookDeliveries: number;
}

/**
 * Loads the history into an empty bench database, set-based (INSERT ... SELECT over
 * generate_series), as the services would have left it: the bench's own merchants are among
 * the `HISTORY_SCALE.merchants` (they get the same history as the others; the rest are created
 * here with a balance row and an API token each). Balances equal the fold of the events, every
 * decision is in ledger_commands, every outbox row (the debit commands, the ledger's decisions,
 * the payout outcomes) is published, every finished disbursement has its delivered webhook and
 * its one attempt. Ends with VACUUM ANALYZE, as autovacuum would have by then.
 */
export async function loadHistory(
  databaseUrl: string,
  benchMerchantIds: number[],
  scale = HISTORY_SCALE,
): Promise<HistoryLoad> {
  const pool = createPgPool(databaseUrl, 1);
  const client = await pool.connect();
  try {
    return await load(client, benchMerchantIds, scale);
  } finally {
    client.release();
    await pool.end();
  }
}

const verbose = (line: string) => process.env.BENCH_HISTORY_VERBOSE && console.log(`  history: ${line}`);

async function load(client: PoolClient, benchMerchantIds: number[], scale: typeof HISTORY_SCALE): Promise<HistoryLoad> {
  const t0 = Date.now();
  const runner = { $executeRawUnsafe: async (sql: string) => (await client.query(sql)).rowCount ?? 0 };
  const step = async (label: string, sql: string) => {
    const t = Date.now();
    const n = await runner.$executeRawUnsafe(sql);
    verbose(`${label}: ${n} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  await client.query(`SET maintenance_work_mem = '512MB'`);
  await client.query(`SET work_mem = '256MB'`);
  const others = scale.merchants - benchMerchantIds.length;
  const { rows: created } = await client.query<{ id: number }>(`
    INSERT INTO merchants (name, created_at) SELECT 'History merchant ' || g, now() - interval '400 days' FROM generate_series(1, ${others}) g RETURNING id`);
  const ids = [...benchMerchantIds, ...created.map((r) => r.id)];
  const list = `ARRAY[${ids.join(',')}]::int[]`;
  await step('balances', `INSERT INTO balances (merchant_id) SELECT m FROM unnest(${list}) m ON CONFLICT DO NOTHING`);
  await step(
    'tokens',
    `
    INSERT INTO api_tokens (id, merchant_id, token_hash, prefix, label)
    SELECT gen_random_uuid(), m, encode(sha256(convert_to('history-token-' || m, 'UTF8')), 'hex'), 'hist', 'history' FROM unnest(${list}) m
     WHERE m NOT IN (SELECT merchant_id FROM api_tokens)`,
  );

  const rebuild = await dropKeysAndIndexes(client);
  const t = Date.now();
  await seedLedgerHistory(runner, ids, scale.eventsPerMerchant, {
    payouts: scale.disbursementsPerMerchant,
    vacuum: false,
  });
  verbose(`ledger, pay-ins, disbursements in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  const h = historyShape(scale.eventsPerMerchant, scale.disbursementsPerMerchant);
  const merchants = `unnest(${list}) m`;
  const finished = h.paid + h.failed;
  // The gateway's debit command of every disbursement (refused ones too), then the ledger's decisions, then the payout outcomes.
  await step(
    'outbox: debit commands',
    `
    INSERT INTO outbox (topic, key, payload, headers, created_at, published_at)
    SELECT '${Topic.LedgerCommands}', m::text,
           jsonb_build_object('type', 'payout.debit', 'commandId', 'payout.debit:' || did, 'merchantId', m, 'payoutId', did, 'amount', d.amount::text, 'fee', d.fee::text),
           jsonb_build_object('message-id', 'payout.debit:' || did), d.created_at, d.created_at
      FROM ${merchants}, generate_series(1, ${finished + h.refused}) k,
           LATERAL (SELECT md5('disbursement:' || m || ':' || k)::uuid::text AS did) x, disbursements d
     WHERE d.id = did::uuid`,
  );
  await step(
    'outbox: ledger decisions',
    `
    INSERT INTO outbox (topic, key, payload, headers, created_at, published_at)
    SELECT '${Topic.LedgerEvents}', c.merchant_id::text,
           jsonb_build_object('kind', CASE WHEN c.outcome = 'applied' THEN 'event' ELSE 'rejection' END, 'commandId', c.command_id, 'commandType', c.type,
                              'merchantId', c.merchant_id, 'eventId', c.event_id::text, 'reason', c.reason),
           jsonb_build_object('message-id', c.command_id || CASE WHEN c.outcome = 'applied' THEN ':event' ELSE ':rejection' END), c.decided_at, c.decided_at
      FROM ledger_commands c`,
  );
  await step(
    'outbox: payout outcomes',
    `
    INSERT INTO outbox (topic, key, payload, headers, created_at, published_at)
    SELECT '${Topic.PayoutEvents}', d.merchant_id::text,
           jsonb_build_object('type', 'disbursement.' || d.status, 'eventId', 'disbursement.' || d.id || '.' || d.status, 'disbursementId', d.id, 'merchantId', d.merchant_id),
           jsonb_build_object('message-id', 'disbursement.' || d.id || '.' || d.status), d.created_at, d.created_at
      FROM disbursements d WHERE d.status IN ('success', 'failed')`,
  );
  await step(
    'webhook deliveries',
    `
    INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, attempt_count, cycle_attempts,
                                    last_attempt_at, last_status_code, delivered_at, created_at, updated_at)
    SELECT md5('webhook:' || d.id)::uuid, 'disbursement.' || d.id || '.' || d.status, 'disbursement.' || d.status, d.merchant_id, d.id, d.notify_url,
           jsonb_build_object('event', 'disbursement.' || d.status, 'data', jsonb_build_object('platformTrxId', d.platform_trx_id, 'merchantTrxId', d.merchant_trx_id,
                              'amount', d.amount, 'status', d.status))::text,
           'delivered', 1, 1, d.created_at, 200, d.created_at, d.created_at, d.created_at
      FROM disbursements d WHERE d.status IN ('success', 'failed')`,
  );
  await step(
    'webhook attempts',
    `
    INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, latency_ms, status_code, response_body, outcome)
    SELECT id, 1, created_at, 12, 200, 'ok', 'delivered' FROM webhook_deliveries`,
  );
  const tr = Date.now();
  await rebuild();
  verbose(`keys, indexes and foreign keys rebuilt in ${((Date.now() - tr) / 1000).toFixed(1)} s`);
  const tv = Date.now();
  await client.query('VACUUM ANALYZE');
  verbose(`VACUUM ANALYZE in ${((Date.now() - tv) / 1000).toFixed(1)} s`);

  const {
    rows: [c],
  } = await client.query<{ events: string; payins: string; disbursements: string; outbox: string; webhooks: string }>(`
    SELECT (SELECT reltuples::bigint FROM pg_class WHERE relname = 'ledger_events') AS events,
           (SELECT reltuples::bigint FROM pg_class WHERE relname = 'payins') AS payins,
           (SELECT reltuples::bigint FROM pg_class WHERE relname = 'disbursements') AS disbursements,
           (SELECT reltuples::bigint FROM pg_class WHERE relname = 'outbox') AS outbox,
           (SELECT reltuples::bigint FROM pg_class WHERE relname = 'webhook_deliveries') AS webhooks`);
  return {
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    merchants: ids.length,
    events: Number(c.events),
    payins: Number(c.payins),
    disbursements: Number(c.disbursements),
    outbox: Number(c.outbox),
    webhookDeliveries: Number(c.webhooks),
  };
}

/**
 * Drops the keys, unique and plain indexes and foreign keys of the bulk tables (and the foreign
 * keys pointing at them), and returns what puts every one of them back as it was, by its own
 * definition: building an index over 5 million rows sorted once is many times faster than
 * inserting into it 5 million times, and a foreign key is validated in one join instead of
 * one lookup per row. A row the history got wrong fails the rebuild.
 */
async function dropKeysAndIndexes(client: PoolClient): Promise<() => Promise<void>> {
  const tables = `ARRAY[${BULK_TABLES.map((t) => `'${t}'`).join(',')}]`;
  const { rows: constraints } = await client.query<{ tbl: string; name: string; def: string; type: string }>(`
    SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def, contype AS type FROM pg_constraint
     WHERE contype IN ('p', 'u', 'f') AND (conrelid::regclass::text = ANY(${tables}) OR (contype = 'f' AND confrelid::regclass::text = ANY(${tables})))`);
  const { rows: indexes } = await client.query<{ name: string; def: string }>(`
    SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = ANY(${tables}) AND indexname NOT IN (SELECT conname FROM pg_constraint)`);
  const foreign = constraints.filter((c) => c.type === 'f');
  const keys = constraints.filter((c) => c.type !== 'f');
  for (const c of foreign) await client.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.name}"`);
  for (const c of keys) await client.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.name}"`);
  for (const i of indexes) await client.query(`DROP INDEX "${i.name}"`);
  return async () => {
    for (const c of keys) await client.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}`);
    for (const i of indexes) await client.query(i.def);
    for (const c of foreign) await client.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}`);
  };
}

/** One line saying what was loaded and how long it took. */
export function describeLoad(l: HistoryLoad): string {
  const m = (n: number) => `${(n / 1e6).toFixed(2)}M`;
  return `history loaded in ${l.seconds} s: ${l.merchants} merchants, ${m(l.events)} ledger events, ${m(l.payins)} pay-ins, ${m(l.disbursements)} disbursements, ${m(l.outbox)} outbox rows, ${m(l.webhookDeliveries)} webhook deliveries`;
}
