import { Client, type Pool } from 'pg';
import { createPgPool } from '../client/sql';
import type { SqlClient, SqlQuery } from '../client/sql';
import { HistoryRepository } from './history.repository';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/**
 * The dashboard's search by merchantTrxId is a prefix. The database's collation does not order
 * text byte by byte, so the prefix is a range under "C" on an index of its own: this proves the
 * statement the repository sends finds exactly the ids that start with the prefix, and that
 * Postgres answers it from that index (no scan of the merchant's history) both as a one-off
 * statement and prepared, once it has run often enough to be kept as a generic plan if Postgres
 * judged that cheaper (the services prepare their statements).
 */
describe('the history search by merchantTrxId prefix (real Postgres, 20,000 rows of one merchant)', () => {
  const databaseUrl = process.env.DATABASE_URL as string;
  const ROWS = 20_000;
  let pool: Pool;
  let admin: Client;
  let merchantId: number;
  const sent: SqlQuery[] = [];
  let history: HistoryRepository;

  beforeAll(async () => {
    pool = createPgPool(databaseUrl, 2, { preparedStatements: false });
    admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    merchantId = (await admin.query<{ id: number }>(`INSERT INTO merchants (name) VALUES ('Toko Prefix') RETURNING id`))
      .rows[0].id;
    // Ids like ORD-00001 .. ORD-20000, one a minute apart, and a few that only look alike.
    await admin.query(
      `INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, created_at)
       SELECT gen_random_uuid(), $1::int, 'ORD-' || lpad(i::text, 5, '0'), 'QRPFX' || $1::int || '-' || i, 100000, 1000, 700, 0,
              CASE WHEN i % 3 = 0 THEN 'success' ELSE 'pending' END, now() - make_interval(mins => $2::int - i)
         FROM generate_series(1, $2::int) i`,
      [merchantId, ROWS],
    );
    const lookAlikes = ['ord-00001', 'ORD_00001', 'ORD-0000', 'ORD-00001~', 'ORE-1'];
    for (const [i, id] of lookAlikes.entries())
      await admin.query(
        `INSERT INTO payins (id, merchant_id, merchant_trx_id, platform_trx_id, amount, fee, fee_pct_milli, fee_fixed, status, created_at)
         VALUES (gen_random_uuid(), $1::int, $2::text, 'QRPFX' || $1::int || $2::text, 100000, 1000, 700, 0, 'pending', now() + make_interval(secs => $3::int))`,
        [merchantId, id, i + 1],
      );
    await admin.query('ANALYZE payins');
    const recording: SqlClient = {
      query: async <T>(q: SqlQuery) => {
        sent.push(q);
        return (await pool.query({ text: q.text, values: q.values })).rows as T[];
      },
      execute: async (q: SqlQuery) => (await pool.query({ text: q.text, values: q.values })).rowCount ?? 0,
    };
    history = new HistoryRepository(recording);
  });
  afterAll(async () => {
    await admin?.end();
    await pool?.end();
  });

  const search = async (prefix: string, limit = 100) =>
    (await history.payins({ merchantId, limit, merchantTrxId: prefix })).map((p) => p.merchantTrxId);

  it('finds exactly the ids that start with the prefix, newest first, case-sensitive, wildcards plain', async () => {
    expect(await search('ORD-0000')).toEqual([
      'ORD-00001~',
      'ORD-0000',
      'ORD-00009',
      'ORD-00008',
      'ORD-00007',
      'ORD-00006',
      'ORD-00005',
      'ORD-00004',
      'ORD-00003',
      'ORD-00002',
      'ORD-00001',
    ]);
    expect(await search('ORD-00001')).toEqual(['ORD-00001~', 'ORD-00001']);
    expect(await search('ord-')).toEqual(['ord-00001']);
    expect(await search('ORD_')).toEqual(['ORD_00001']);
    expect(await search('ORD%')).toEqual([]);
    expect(await search('ORD-2')).toEqual(['ORD-20000']);
    expect(await search('ORD-1', 1000)).toHaveLength(1000);
    expect(await search('OR', 3)).toEqual(['ORE-1', 'ORD-00001~', 'ORD-0000']);
  });

  async function planOf(q: SqlQuery, generic: boolean): Promise<PlanNode[]> {
    if (!generic) {
      const { rows } = await admin.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
        text: `EXPLAIN (FORMAT JSON) ${q.text}`,
        values: q.values,
      });
      return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
    }
    // As a service's connection runs it: prepared, run more than the 5 times after which Postgres
    // may keep one generic plan (plan_cache_mode auto), then explained as it would run next.
    const literal = (v: unknown) => admin.escapeLiteral(v instanceof Date ? v.toISOString() : String(v));
    const execute = `EXECUTE prefix_search(${q.values.map(literal).join(', ')})`;
    await admin.query(`PREPARE prefix_search AS ${q.text}`);
    try {
      for (let run = 0; run < 8; run++) await admin.query(execute);
      const { rows } = await admin.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${execute}`);
      return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
    } finally {
      await admin.query('DEALLOCATE prefix_search');
    }
  }

  it.each([
    ['one-off', false],
    ['prepared, after the runs that may turn it generic', true],
  ])('is a range of the prefix index, never a scan of the history (%s)', async (_kind, generic) => {
    sent.length = 0;
    await search('ORD-1234', 21);
    expect(sent).toHaveLength(1);
    const plan = await planOf(sent[0], generic);
    const scans = plan.filter((n) => /Scan/.test(n['Node Type']));
    expect(scans.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim())).toEqual([
      expect.stringMatching(/^(Index Scan|Bitmap Index Scan) payins_merchant_id_trx_id_c_idx$/),
      ...scans.slice(1).map(() => expect.stringMatching(/^Bitmap Heap Scan/)),
    ]);
  });
});
