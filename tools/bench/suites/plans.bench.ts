import { createPgPool, createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase } from '@pay/testing';
import type { Pool, PoolClient } from 'pg';
import { insertBusyDay, reconDay } from '../seeds/busy-day.seed';
import { benchArgs } from '../lib/history-mode';
import { describeLoad, loadHistory } from '../seeds/history.seed';
import { runBench } from '../lib/harness';
import { recordNumbers, recordTable } from '../lib/report';
import { HOT_QUERIES, pickParameters, type HotQuery } from '../lib/hot-queries';

/**
 * The plan of every hot query on a database holding a realistic history (docs/decisions/0019):
 * EXPLAIN (ANALYZE, BUFFERS) of each, inside a transaction rolled back (the writes too), printed
 * as the plan's node types, its time, its planning time and its buffers, with a flag on any Seq
 * Scan of a big table (over 100,000 rows). Each is also run prepared, as the services run it:
 * `preparedRunsWith` says whether Postgres then re-plans it on every run (`custom`) or keeps one
 * generic plan, and `genericMs` is that generic plan's time (its Seq Scans flagged too). Without a URL it loads the history (bench history mode) into a new
 * database first; --keep leaves that database for later runs.
 * Usage: npm run build && npm run bench -- plans [databaseUrl] [--keep] [--verbose]
 */
const BIG_TABLE_ROWS = 100_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(plan);
  for (const child of plan.Plans ?? []) nodes(child, out);
  return out;
}

function describe(node: PlanNode): string {
  const on = node['Index Name'] ? ` ${node['Index Name']}` : node['Relation Name'] ? ` ${node['Relation Name']}` : '';
  return `${node['Node Type']}${on}`;
}

async function explain(
  pool: Pool,
  q: HotQuery,
  params: Record<string, unknown>,
  bigTables: Set<string>,
  verbose: boolean,
) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (q.setup) await client.query(q.setup);
    // Twice: the first run warms the cache (a hot query's pages are in memory in production); the second is the one reported.
    const first = await q.statement(params, 1);
    await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${first.text}`, values: first.values });
    const { text, values } = await q.statement(params, 2);
    const { rows } = await client.query<{
      'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }];
    }>({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values });
    const [result] = rows[0]['QUERY PLAN'];
    const all = nodes(result.Plan);
    const seqScans = all
      .filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] && bigTables.has(n['Relation Name']))
      .map((n) => n['Relation Name']);
    if (verbose) {
      const again = await q.statement(params, 3);
      const textPlan = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${again.text}`, values: again.values });
      console.log(`\n-- ${q.name}\n${textPlan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
    const generic = await genericPlan(client, q, params, bigTables);
    const flags = [
      seqScans.length ? `SEQ SCAN on big table: ${[...new Set(seqScans)].join(', ')}` : '',
      generic.seqScans.length ? `generic plan: SEQ SCAN on big table: ${generic.seqScans.join(', ')}` : '',
    ];
    return {
      query: q.name,
      plan: [...new Set(all.map(describe))].join(' > ').slice(0, 140),
      ms: Number(result['Execution Time'].toFixed(3)),
      planningMs: Number(result['Planning Time'].toFixed(3)),
      buffers: (result.Plan['Shared Hit Blocks'] ?? 0) + (result.Plan['Shared Read Blocks'] ?? 0),
      preparedRunsWith: generic.autoPicks,
      genericMs: generic.ms,
      flag: flags.filter(Boolean).join('; '),
    };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

let preparedCount = 0;

/** A parameter's text form, as node-postgres sends it (arrays as array literals, dates in ISO 8601). */
function asText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v))
    return `{${v.map((e) => (e === null || e === undefined ? 'NULL' : `"${asText(e).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

/**
 * The statement as a service runs it, prepared (sql.ts names every statement): six runs, after
 * which Postgres has chosen between re-planning it on every run (`custom`) and its one generic
 * plan (`generic`, planned once per connection); then the generic plan itself, EXPLAINed with
 * plan_cache_mode = force_generic_plan, for its time and any Seq Scan of a big table.
 */
async function genericPlan(
  client: PoolClient,
  q: HotQuery,
  params: Record<string, unknown>,
  bigTables: Set<string>,
): Promise<{ autoPicks: string; ms: number; seqScans: string[] }> {
  const name = `plans_${++preparedCount}`;
  for (let run = 4; run < 10; run++) {
    const { text, values } = await q.statement(params, run);
    await client.query('SAVEPOINT prepared_run');
    await client.query({ name, text, values }).then(
      () => client.query('RELEASE SAVEPOINT prepared_run'),
      () => client.query('ROLLBACK TO SAVEPOINT prepared_run'),
    );
  }
  const { rows: counts } = await client.query<{ generic: string; custom: string }>(
    'SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = $1',
    [name],
  );
  const autoPicks = Number(counts[0]?.generic ?? 0) > 0 ? 'generic' : 'custom';
  const { values } = await q.statement(params, 10);
  await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
  // EXECUTE takes no bind parameters: each value as the text pg would have sent, a literal typed by the statement.
  const literal = (v: unknown) => (v === null || v === undefined ? 'NULL' : client.escapeLiteral(asText(v)));
  const args = values.length ? `(${values.map(literal).join(', ')})` : '';
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}${args}`,
  );
  const [result] = rows[0]['QUERY PLAN'];
  const seqScans = nodes(result.Plan)
    .filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] && bigTables.has(n['Relation Name']))
    .map((n) => n['Relation Name'] as string);
  return { autoPicks, ms: Number(result['Execution Time'].toFixed(3)), seqScans: [...new Set(seqScans)] };
}

async function main(): Promise<void> {
  const args = benchArgs().filter((a) => !a.startsWith('--'));
  const keep = process.argv.includes('--keep');
  const verbose = process.argv.includes('--verbose');
  let databaseUrl = args[0];
  const created = !databaseUrl;
  if (!databaseUrl) {
    databaseUrl = await createTestDatabase('pay_plans');
    const prisma = createPrismaClient(databaseUrl, 2);
    try {
      const { merchant } = await createMerchant(prisma, { name: 'Toko "Plans", Jaya' });
      const load = await loadHistory(databaseUrl, [merchant.id]);
      console.log(describeLoad(load));
      recordNumbers('history loaded', { ...load });
      // A busy day of the first merchant, for the recon export (the recon bench's shape, a fifth of its size).
      const t = Date.now();
      await insertBusyDay(prisma, merchant.id, merchant.nmid, reconDay().start, 200_000);
      await prisma.$executeRawUnsafe('ANALYZE payins');
      console.log(`busy day of 200,000 pay-ins in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    } finally {
      await prisma.$disconnect();
    }
  }
  const pool = createPgPool(databaseUrl, 2);
  try {
    const { rows: sizes } = await pool.query<{ relname: string; n: string }>(
      `SELECT relname, reltuples::bigint::text AS n FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`,
    );
    const bigTables = new Set(sizes.filter((s) => Number(s.n) > BIG_TABLE_ROWS).map((s) => s.relname));
    const params = await pickParameters(pool);
    const rows = [];
    for (const q of HOT_QUERIES) rows.push(await explain(pool, q, params, bigTables, verbose));
    console.log(
      `\nhot query plans on ${sizes
        .filter((s) => bigTables.has(s.relname))
        .map((s) => `${s.relname} ${(Number(s.n) / 1e6).toFixed(2)}M`)
        .join(', ')}`,
    );
    console.table(rows);
    console.log(JSON.stringify({ benchmark: 'hot query plans', date: new Date().toISOString(), results: rows }));
    recordTable('hot query plans', rows);
    const flagged = rows.filter((r) => r.flag);
    recordNumbers('big table scans', { flagged: flagged.length });
    console.log(
      flagged.length
        ? `${flagged.length} hot queries scan a big table: ${flagged.map((r) => r.query).join('; ')}`
        : 'no hot query scans a big table',
    );
    if (created && keep) console.log(`kept: ${databaseUrl}`);
  } finally {
    await pool.end();
    if (created && !keep) await dropDatabase(databaseUrl);
  }
}

runBench(main);
