import pg, { type Pool, type PoolClient, type PoolConfig, type QueryResult } from 'pg';
import { createLogger, throttledWarn } from '@pay/platform';
import { PRIMARY_ONLY, ReadOnlyServerError, trackIdle } from './primary-only';

/**
 * Plain node-postgres for the hot paths (docs/decisions/0010, 0011): a `sql` tagged template
 * that turns `${value}` into bind parameters (never into SQL text), a minimal client
 * interface the transaction and the pool both satisfy, and a transaction runner.
 */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** Made by `sql`: only such a value is spliced into another sql`` as SQL (a fragment); any other value is a parameter. */
const FRAGMENT = Symbol('sql fragment');
type Fragment = SqlQuery & { [FRAGMENT]: true };

/** Constant SQL text spliced into a sql`` as it is (never a value that came from outside the code). */
export function sqlText(text: string): SqlQuery {
  return fragment(text, []);
}

function fragment(text: string, values: unknown[]): Fragment {
  const q = { text, values } as Fragment;
  Object.defineProperty(q, FRAGMENT, { value: true });
  return q;
}

function isFragment(v: unknown): v is Fragment {
  return typeof v === 'object' && v !== null && (v as Partial<Fragment>)[FRAGMENT] === true;
}

/**
 * sql`SELECT * FROM t WHERE id = ${id}` -> { text: 'SELECT * FROM t WHERE id = $1', values: [id] }.
 * A value that is itself a sql`` (or sqlText) is spliced in as SQL, its parameters numbered on
 * after the ones before it: statements share a piece (a CTE) without repeating it.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  let text = strings[0];
  const params: unknown[] = [];
  for (let i = 1; i < strings.length; i++) {
    const v = values[i - 1];
    if (isFragment(v)) {
      const offset = params.length;
      text += v.text.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
      params.push(...v.values);
    } else {
      params.push(v);
      text += `$${params.length}`;
    }
    text += strings[i];
  }
  return fragment(text, params);
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
 * returned to the pool. `advisoryLock` (two int keys) is taken before `work` starts, in the same
 * round trip as BEGIN, and held to the end: under READ COMMITTED, `work`'s statements then see
 * everything the previous holder committed.
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (tx: SqlClient) => Promise<T>,
  opts: { isolation?: IsolationLevel; timeoutMs?: number; advisoryLock?: readonly [number, number] } = {},
): Promise<T> {
  const conn = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip; a statement (or lock wait) longer than timeoutMs aborts the transaction.
    const lock = opts.advisoryLock
      ? `; SELECT pg_advisory_xact_lock(${Math.trunc(opts.advisoryLock[0])}, ${Math.trunc(opts.advisoryLock[1])})`
      : '';
    await conn.query(
      `BEGIN ISOLATION LEVEL ${opts.isolation ?? 'READ COMMITTED'}; SET LOCAL statement_timeout = ${Math.trunc(opts.timeoutMs ?? 15_000)}${lock}`,
    );
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
    oid === pg.types.builtins.INT8
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Where connection errors go when the caller gives no handler (tools, tests): warn lines, throttled. */
let fallbackOnError: ((err: unknown) => void) | undefined;
export function defaultConnectionErrorLog(): (err: unknown) => void {
  return (fallbackOnError ??= throttledWarn(
    createLogger('pg', 'warn'),
    'postgres pool: connection error (reconnecting)',
  ));
}

/**
 * Keeps a pg pool's connection errors from killing the process, and is its reconnect story:
 * a connection the server drops (a restart, a failover, pg_terminate_backend) emits 'error';
 * unheard, that 'error' is thrown and takes the process down. Every connection gets a listener
 * that reports to `onError`, idle or checked out (its holder sees the failure on its next query
 * and releases it as broken); the pool's own 'error' (the same error, re-emitted for an idle
 * connection, which pg-pool then discards) needs a listener too. Reconnection is lazy: the
 * next query opens a new connection. A connection closed because its server is read-only (a
 * failover, see PRIMARY_ONLY) is reported the same way, and the pool's idle connections are
 * tracked so such a failover closes them all at once (trackIdle).
 */
export function guardPool(pool: Pool, onError: (err: unknown) => void = defaultConnectionErrorLog()): Pool {
  pool.on('error', () => undefined); // already reported by the connection's own listener
  pool.on('connect', (client) => client.on('error', onError));
  pool.on('release', (err) => err instanceof ReadOnlyServerError && onError(err));
  return trackIdle(pool);
}

/**
 * The services' server-side cap on one statement (a transaction sets its own, see
 * inTransaction): a stuck query fails instead of holding a request. Tools (admin, benches)
 * run without one: `ledger verify` over a large ledger may take longer.
 */
export const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * How long past its statement timeout a query may wait for the server's answer before the client
 * gives up on the connection (pg's `query_timeout`; the pool then discards that connection).
 * The server enforces statement_timeout; this bounds the case where the server is not there to
 * enforce anything: a failover whose old primary drops packets, where a query would otherwise wait
 * for TCP to give up, a quarter of an hour later.
 */
export const UNANSWERED_QUERY_GRACE_MS = 5_000;

/** TCP keepalive probes start after a connection has been idle this long (the OS default is two hours). */
export const KEEPALIVE_IDLE_MS = 10_000;

/**
 * A plain node-postgres pool beside the Prisma client, for the hot paths: a Prisma raw query
 * costs ~280 µs of CPU against ~57 µs through pg (measured, docs/decisions/0010).
 * `preparedStatements` (DATABASE_PREPARED_STATEMENTS, default on): see above. Connecting waits
 * at most 5 s (then the query fails: 503 on a request), TCP keepalive (probing after 10 s idle)
 * notices a silently dead server, `statement_timeout` caps a statement and `query_timeout` the wait
 * for its answer (services pass STATEMENT_TIMEOUT_MS and UNANSWERED_QUERY_GRACE_MS more);
 * `onError` hears connection errors (see guardPool). Its connections are to the primary only
 * (PRIMARY_ONLY: a read-only server's are refused, or closed on release).
 */
export function createPgPool(
  databaseUrl: string,
  size = 10,
  extra: PoolConfig & { preparedStatements?: boolean; onError?: (err: unknown) => void } = {},
): Pool {
  const { preparedStatements = true, onError, ...config } = extra;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: size,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    types,
    ...PRIMARY_ONLY,
    ...config,
  });
  if (preparedStatements) preparingPools.add(pool);
  return guardPool(pool, onError);
}
