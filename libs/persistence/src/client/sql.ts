import pg, { type Pool, type PoolClient, type PoolConfig } from 'pg';

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

class PgSqlClient implements SqlClient {
  constructor(private readonly conn: Pool | PoolClient) {}

  async query<T>(q: SqlQuery): Promise<T[]> {
    const res = await this.conn.query(q.text, q.values);
    return res.rows as T[];
  }

  async execute(q: SqlQuery): Promise<number> {
    const res = await this.conn.query(q.text, q.values);
    return res.rowCount ?? 0;
  }
}

/** Statements on the pool, each in its own implicit transaction. */
export function sqlClient(pool: Pool): SqlClient {
  return new PgSqlClient(pool);
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
    const result = await work(new PgSqlClient(conn));
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
 */
export function createPgPool(databaseUrl: string, size = 10, extra: PoolConfig = {}): Pool {
  return new pg.Pool({ connectionString: databaseUrl, max: size, connectionTimeoutMillis: 5000, types, ...extra });
}
