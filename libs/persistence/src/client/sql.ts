import pg, { type Pool, type PoolClient, type PoolConfig, type QueryResult } from 'pg';

/**
 * Plain node-postgres for the hot paths (docs/decisions/0010, 0011): a `sql` tagged template
 * that turns `${value}` into bind parameters (never into SQL text), a minimal client
 * interface the transaction and the pool both satisfy, and a transaction runner.
 */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** sql`SELECT * FROM t WHERE id = ${id}` -> { text: 'SELECT * FROM t WHERE id = $1', values: [id] } */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  let text = strings[0];
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return { text, values };
}

/** What repositories and ledger handlers need of a connection: rows, and the affected row count. */
export interface SqlClient {
  query<T>(q: SqlQuery): Promise<T[]>;
  execute(q: SqlQuery): Promise<number>;
}

/**
 * Named (prepared) statements: Postgres parses and plans each statement once per connection
 * instead of on every call, which took about a third off Postgres' CPU per transfer
 * (docs/decisions/0011). Pools made with `preparedStatements: false` (a pooler in transaction
 * mode that does not track them) send every statement unnamed.
 */
const preparingPools = new WeakSet<Pool>();
const statementNames = new Map<string, string>();
/** Statements Postgres refused to run prepared any more (their table changed shape): sent unnamed from then on. */
const unprepared = new Set<string>();
const STALE_STATEMENT = new Set(['0A000', '26000']); // cached plan must not change result type; prepared statement does not exist

function config(q: SqlQuery, prepare: boolean): { name?: string; text: string; values: unknown[] } {
  if (!prepare || unprepared.has(q.text)) return { text: q.text, values: q.values };
  let name = statementNames.get(q.text);
  if (!name) statementNames.set(q.text, (name = `pay_${statementNames.size}`));
  return { name, text: q.text, values: q.values };
}

class PgSqlClient implements SqlClient {
  constructor(
    private readonly conn: Pool | PoolClient,
    private readonly prepare: boolean,
    /** On the pool (autocommit) a stale statement is simply sent again unnamed; in a transaction the error aborts it. */
    private readonly canRetry: boolean,
  ) {}

  async query<T>(q: SqlQuery): Promise<T[]> {
    return (await this.run(q)).rows as T[];
  }

  async execute(q: SqlQuery): Promise<number> {
    return (await this.run(q)).rowCount ?? 0;
  }

  private async run(q: SqlQuery): Promise<QueryResult> {
    try {
      return await this.conn.query(config(q, this.prepare));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!this.prepare || !code || !STALE_STATEMENT.has(code)) throw err;
      unprepared.add(q.text);
      if (!this.canRetry) throw err;
      return this.conn.query(config(q, false));
    }
  }
}

/** Statements on the pool, each in its own implicit transaction. */
export function sqlClient(pool: Pool): SqlClient {
  return new PgSqlClient(pool, preparingPools.has(pool), true);
}

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK
 * when it throws (the error is rethrown). Statements time out after `timeoutMs` (15 s). A connection whose ROLLBACK fails is discarded, not
 * returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (tx: SqlClient) => Promise<T>, opts: { isolation?: IsolationLevel; timeoutMs?: number } = {}): Promise<T> {
  const conn = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip; a statement (or lock wait) longer than timeoutMs aborts the transaction.
    await conn.query(`BEGIN ISOLATION LEVEL ${opts.isolation ?? 'READ COMMITTED'}; SET LOCAL statement_timeout = ${Math.trunc(opts.timeoutMs ?? 15_000)}`);
    const result = await work(new PgSqlClient(conn, preparingPools.has(pool), false));
    await conn.query('COMMIT');
    return result;
  } catch (err) {
    await conn.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    conn.release(broken);
  }
}

/**
 * int8 (bigint) columns come back as JavaScript bigint, as they do from Prisma: money is
 * integer minor units and must never pass through a float.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A plain node-postgres pool beside the Prisma client, for the hot paths: a Prisma raw query
 * costs ~280 µs of CPU against ~57 µs through pg (measured, docs/decisions/0010).
 * `preparedStatements` (DATABASE_PREPARED_STATEMENTS, default on): see above.
 */
export function createPgPool(databaseUrl: string, size = 10, extra: PoolConfig & { preparedStatements?: boolean } = {}): Pool {
  const { preparedStatements = true, ...config } = extra;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: size, connectionTimeoutMillis: 5000, types, ...config });
  if (preparedStatements) preparingPools.add(pool);
  return pool;
}
