import { applyMigrations, createPgPool, createPrismaClient, ensureDatabase } from '@pay/persistence';
import { createMerchant, MIGRATIONS_DIR } from '@pay/testing';
import { BENCH_RATE_LIMITS, runScript } from '../lib/harness';
import { BENCH_HISTORY_MERCHANTS, type BenchMerchant, historyDatabaseUrl } from '../lib/history-db';
import { describeLoad, loadHistory, type HistoryLoad } from './history.seed';

/**
 * Loads the history (seeds/history.seed.ts) once into a database kept for later runs, which clone
 * it (BENCH_HISTORY_DB=<name>, lib/history-db.ts) instead of loading it again (10-17 minutes).
 * Usage: npm run build && npm run bench -- keep-history <name> [benchMerchants=20]
 */

/** Loads the history into a new database `name` with `count` bench merchants first; keeps it. */
export async function loadHistoryDatabase(name: string, count = BENCH_HISTORY_MERCHANTS): Promise<HistoryLoad> {
  const url = historyDatabaseUrl(name);
  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS_DIR);
  const prisma = createPrismaClient(url, 2);
  const merchants: BenchMerchant[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const { merchant, token, admin } = await createMerchant(prisma);
      await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
      merchants.push({ id: merchant.id, token });
    }
  } finally {
    await prisma.$disconnect();
  }
  const load = await loadHistory(
    url,
    merchants.map((m) => m.id),
  );
  const pool = createPgPool(url, 1);
  try {
    await pool.query('CREATE TABLE bench_history_merchants (merchant_id int PRIMARY KEY, token text NOT NULL)');
    for (const m of merchants) await pool.query('INSERT INTO bench_history_merchants VALUES ($1, $2)', [m.id, m.token]);
  } finally {
    await pool.end();
  }
  return load;
}

async function main(): Promise<void> {
  const [name, count] = process.argv.slice(2);
  if (!name) throw new Error('usage: npm run bench -- keep-history <name> [benchMerchants=20]');
  console.log(
    `${describeLoad(await loadHistoryDatabase(name, Number(count ?? BENCH_HISTORY_MERCHANTS)))}; kept as ${name} (BENCH_HISTORY_DB=${name})`,
  );
}

runScript(main);
