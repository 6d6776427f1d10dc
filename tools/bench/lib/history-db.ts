import { applyMigrations, createPgPool, dropDatabase } from '@pay/persistence';
import { dueSettlementCutoff } from '@pay/domain';
import { MIGRATIONS_DIR, TEST_PG_SERVER, uniqueName } from '@pay/testing';
import type { HistoryLoad } from '../seeds/history.seed';

/**
 * A history loaded once and kept (BENCH_HISTORY_DB=<name>, loaded by seeds/keep-history.ts): loading
 * takes 10-17 minutes, cloning it (`CREATE DATABASE ... TEMPLATE`) seconds. The kept database holds,
 * beside the history, the bench's own merchants (with their rate limits) and their API tokens in
 * `bench_history_merchants`, so a bench run on a clone uses merchants that have the same history as
 * the 9,980 others.
 */
export const BENCH_HISTORY_MERCHANTS = 20;

export interface BenchMerchant {
  id: number;
  token: string;
}

/** The kept history database named by BENCH_HISTORY_DB, if any. */
export function keptHistoryDatabase(): string | undefined {
  return process.env.BENCH_HISTORY_DB || undefined;
}

/** The URL of database `name` on the bench's Postgres server. */
export function historyDatabaseUrl(name: string): string {
  return `${TEST_PG_SERVER.replace(/\/$/, '')}/${name}`;
}

/**
 * A new database cloned from the kept history `name` (migrations newer than the history applied
 * on the clone), with the bench merchants the history was loaded with, first `count` of them.
 */
export async function cloneHistoryDatabase(
  name: string,
  count: number,
): Promise<{ databaseUrl: string; merchants: BenchMerchant[]; load: HistoryLoad }> {
  const t = Date.now();
  const clone = uniqueName('pay_bench_hist');
  const admin = createPgPool(historyDatabaseUrl('postgres'), 1);
  try {
    await admin.query(`CREATE DATABASE "${clone}" TEMPLATE "${name}"`);
  } finally {
    await admin.end();
  }
  const databaseUrl = historyDatabaseUrl(clone);
  try {
    await applyMigrations(databaseUrl, MIGRATIONS_DIR);
    const pool = createPgPool(databaseUrl, 1);
    try {
      const { rows } = await pool.query<BenchMerchant>(
        'SELECT merchant_id AS id, token FROM bench_history_merchants ORDER BY merchant_id LIMIT $1',
        [count],
      );
      if (rows.length < count)
        throw new Error(`the kept history ${name} has ${rows.length} bench merchants, ${count} asked`);
      const {
        rows: [c],
      } = await pool.query<Record<string, string>>(`
        SELECT (SELECT count(*) FROM merchants) AS merchants,
               (SELECT reltuples::bigint FROM pg_class WHERE relname = 'ledger_events') AS events,
               (SELECT reltuples::bigint FROM pg_class WHERE relname = 'payins') AS payins,
               (SELECT reltuples::bigint FROM pg_class WHERE relname = 'disbursements') AS disbursements,
               (SELECT reltuples::bigint FROM pg_class WHERE relname = 'outbox') AS outbox,
               (SELECT reltuples::bigint FROM pg_class WHERE relname = 'webhook_deliveries') AS webhooks`);
      // The history's unsettled pay-ins succeeded when it was loaded: past the next cut-off (10:00
      // WIB) they are all due, and the services' first settlement scan requests 10,000 settlements.
      const {
        rows: [due],
      } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM merchants WHERE settlement_delay_days = 1 AND settlement_hour = 10 AND EXISTS (
          SELECT 1 FROM payins WHERE merchant_id = merchants.id AND status = 'success' AND settlement_id IS NULL AND success_at < $1)`,
        [dueSettlementCutoff(new Date(), 1, 10)],
      );
      if (Number(due.n) > 0)
        console.warn(
          `warning: the kept history ${name} is older than a settlement cut-off: ${due.n} merchants have a settlement due (reload it for comparable runs)`,
        );
      const load: HistoryLoad = {
        seconds: Math.round((Date.now() - t) / 100) / 10,
        merchants: Number(c.merchants),
        events: Number(c.events),
        payins: Number(c.payins),
        disbursements: Number(c.disbursements),
        outbox: Number(c.outbox),
        webhookDeliveries: Number(c.webhooks),
      };
      return { databaseUrl, merchants: rows, load };
    } finally {
      await pool.end();
    }
  } catch (err) {
    await dropDatabase(databaseUrl);
    throw err;
  }
}
