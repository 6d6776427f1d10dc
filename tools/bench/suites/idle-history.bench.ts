import { createPgPool, createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, fundMerchant } from '@pay/testing';
import { type LocalStack } from '@pay/devstack';
import type { Pool } from 'pg';
import { backendsMs, cpuPerUnit, DATABASE_BACKENDS_SQL, sampleBackends, sampleCpu } from '../lib/cpu';
import { runBench, startBenchStack } from '../lib/harness';
import { cloneHistoryDatabase, keptHistoryDatabase } from '../lib/history-db';
import { benchArgs } from '../lib/history-mode';
import { describeLoad, loadHistory, type HistoryLoad } from '../seeds/history.seed';
import { printResults, recordNumbers } from '../lib/report';

/**
 * What the four services cost doing nothing (their polls, scans and schedules), on an empty
 * database and then on one holding the history (tools/bench/seeds/history.seed.ts), back to back: CPU per
 * second of each process and of the bench database's own Postgres backends (the machine's other
 * Postgres work left out), transactions per second, the statements found running (sampled from
 * pg_stat_activity every 20 ms: samples x 20 ms is about the time spent in them) and the tables
 * read (pg_stat_user_tables deltas). Finds what grows with the data (docs/decisions/0019).
 * The stack runs with the transfer bench's settings; the first `warmup` seconds (start-up, the
 * first scans) are left out, as the transfer bench leaves them out of its idle row.
 * Usage: npm run build && npm run bench -- idle-history [seconds=30] [warmup=5]
 *   (BENCH_HISTORY_DB=<name>: clone a kept history, npm run bench -- keep-history, instead of loading one)
 */
const [SECONDS = 30, WARMUP = 5] = benchArgs().map(Number);
const SAMPLE_MS = 20;

type Rows = Record<string, string | number>[];

async function main(): Promise<void> {
  const empty = await measure(false);
  const history = await measure(true);
  console.log(`\n${describeLoad(history.load as HistoryLoad)}`);
  recordNumbers('history loaded', { ...(history.load as HistoryLoad) });
  for (const [name, r] of [
    ['empty', empty],
    ['history', history],
  ] as const) {
    printResults(`idle ${SECONDS} s on the ${name} database: CPU ms per second by process`, [r.cpu]);
    printResults(
      `idle on the ${name} database: statements running (pg_stat_activity every ${SAMPLE_MS} ms)`,
      r.statements,
    );
    printResults(`idle on the ${name} database: tables read`, r.tables);
  }
  printResults('idle: empty database vs history', [
    { database: 'empty', ...pick(empty.cpu) },
    { database: 'history', ...pick(history.cpu) },
  ]);
}

const pick = (c: Record<string, string | number>) => ({
  postgresBenchDb: c.postgresBenchDb,
  postgresAll: c.postgres,
  workers: c.workers,
  ledger: c.ledger,
  payout: c.payout,
  gateway: c.gateway,
  pgTransactions: c.pgTransactions,
});

async function measure(
  withHistory: boolean,
): Promise<{ cpu: Record<string, string | number>; statements: Rows; tables: Rows; load?: HistoryLoad }> {
  const kept = withHistory ? keptHistoryDatabase() : undefined;
  let databaseUrl: string;
  let load: HistoryLoad | undefined;
  if (kept) {
    ({ databaseUrl, load } = await cloneHistoryDatabase(kept, 1));
  } else {
    databaseUrl = await createTestDatabase('pay_bench');
    const prisma = createPrismaClient(databaseUrl, 2);
    try {
      const { merchant } = await createMerchant(prisma);
      load = withHistory ? await loadHistory(databaseUrl, [merchant.id]) : undefined;
      await fundMerchant(prisma, merchant.id, [1_000_000n]);
    } finally {
      await prisma.$disconnect();
    }
  }
  const pool = createPgPool(databaseUrl, 2);
  let stack: LocalStack | undefined;
  try {
    stack = await startBenchStack(databaseUrl, { RAIL_SANDBOX_LATENCY_MS: '0', PAYOUT_BATCH_SIZE: '64' }, 'idle');
    await new Promise((r) => setTimeout(r, WARMUP * 1000));
    const backends = async () =>
      sampleBackends((await pool.query<{ pid: number }>(DATABASE_BACKENDS_SQL)).rows.map((r) => r.pid));
    const xacts = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
          )
        ).rows[0].n,
      );
    const tablesBefore = await tableStats(pool);
    const cpuBefore = sampleCpu(stack);
    const backendsBefore = await backends();
    const xactsBefore = await xacts();
    const statements = await sampleStatements(pool, SECONDS * 1000);
    const cpu = cpuPerUnit(cpuBefore, sampleCpu(stack), SECONDS);
    const dbMs = backendsMs(backendsBefore, await backends()) / SECONDS;
    const pgTransactions = Math.round((await xacts()) - xactsBefore) / SECONDS;
    const tablesAfter = await tableStats(pool);
    const tables = [...tablesAfter.entries()]
      .map(([relname, a]) => {
        const b = tablesBefore.get(relname) ?? { seqScan: 0, seqRows: 0, idxScan: 0, idxRows: 0, writes: 0 };
        return {
          relname,
          seqScans: a.seqScan - b.seqScan,
          seqRowsRead: a.seqRows - b.seqRows,
          idxScans: a.idxScan - b.idxScan,
          idxRowsFetched: a.idxRows - b.idxRows,
          rowsWritten: a.writes - b.writes,
        };
      })
      .filter((t) => t.seqScans + t.idxScans + t.rowsWritten > 0)
      .sort((x, y) => y.seqRowsRead + y.idxRowsFetched - (x.seqRowsRead + x.idxRowsFetched))
      .slice(0, 10);
    return {
      cpu: { ...cpu, postgresBenchDb: Math.round(dbMs), pgTransactions: Math.round(pgTransactions) },
      statements,
      tables,
      load,
    };
  } finally {
    await stack?.stop();
    await pool.end();
    await dropDatabase(databaseUrl);
  }
}

async function tableStats(pool: Pool) {
  const { rows } = await pool.query<{
    relname: string;
    seq_scan: string;
    seq_tup_read: string;
    idx_scan: string;
    idx_tup_fetch: string;
    writes: string;
  }>(`
    SELECT relname, seq_scan, seq_tup_read, coalesce(idx_scan, 0) AS idx_scan, coalesce(idx_tup_fetch, 0) AS idx_tup_fetch, n_tup_ins + n_tup_upd + n_tup_del AS writes
      FROM pg_stat_user_tables`);
  return new Map(
    rows.map((r) => [
      r.relname,
      {
        seqScan: Number(r.seq_scan),
        seqRows: Number(r.seq_tup_read),
        idxScan: Number(r.idx_scan),
        idxRows: Number(r.idx_tup_fetch),
        writes: Number(r.writes),
      },
    ]),
  );
}

/** The statements found running in the database every SAMPLE_MS for `ms`, most seen first. */
async function sampleStatements(pool: Pool, ms: number): Promise<Rows> {
  const seen = new Map<string, number>();
  let samples = 0;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    samples++;
    const { rows } = await pool.query<{ query: string; backend_type: string }>(`
      SELECT query, backend_type FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`);
    for (const r of rows) {
      const key = `${r.backend_type === 'client backend' ? '' : `[${r.backend_type}] `}${r.query.replace(/\s+/g, ' ').trim().slice(0, 150)}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
  }
  return [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([statement, n]) => ({ statement, samples: n, shareOfSamples: `${((100 * n) / samples).toFixed(1)} %` }));
}

runBench(main);
