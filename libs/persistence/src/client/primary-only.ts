import pg, { type ClientConfig, type Pool, type PoolClient, type PoolConfig } from 'pg';

/**
 * The services write on every path, so they talk to the primary only, as libpq's
 * `target_session_attrs=read-write` does (docs/decisions/0015). A failover behind a DNS name or a
 * proxy (Aurora's cluster endpoint, Patroni behind HAProxy, a Kubernetes Service) moves new
 * connections to the new primary, but a pooled connection made before it stays on the old server.
 * If that server is still up and read-only (a fenced old primary, or a writer that came back as a
 * reader), every write on the connection fails with 25006 and every read answers from data that no
 * longer moves, for as long as the connection lives: a busy pool never lets it idle out.
 *
 * PostgreSQL 14 and later tell each client when the server is or becomes read-only, in the
 * ParameterStatus messages `in_hot_standby` (a standby) and `default_transaction_read_only` (a
 * primary made read-only by its configuration): at the start, and after any statement during
 * which it changed. A PrimaryClient keeps them, and:
 * - a new connection to a read-only server is refused before anyone uses it (the pool's `verify`):
 *   the caller gets a ReadOnlyServerError, which is transient (503 and Retry-After, a retry);
 * - a pooled connection whose server has gone read-only is closed when it is released, not put
 *   back: the next checkout connects anew and finds the new primary. The statement in hand is not
 *   cut: a COMMIT that succeeded stays a known success;
 * - the first connection to learn that its server went read-only closes every idle connection
 *   made to the same address, in every pool of the process (trackIdle): they are on the same old
 *   server, and each would otherwise answer one read from it before learning, a read the new
 *   primary's writes have passed (a pay-in just created answered "not found").
 *
 * On PostgreSQL 13 and older nothing is reported, and the services behave as before (a write's
 * 25006 is retried; a connection dropped by the server is replaced).
 */
export class PrimaryClient extends pg.Client {
  private readonly reported = new Map<string, string>();
  private releaseToPool?: (err?: Error | boolean) => void;

  constructor(config?: string | ClientConfig) {
    super(config);
    this.connection.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => {
      if (!READ_ONLY_PARAMETERS.includes(msg.parameterName)) return;
      const wasReadOnly = this.readOnlyServer;
      this.reported.set(msg.parameterName, msg.parameterValue);
      if (!wasReadOnly && this.readOnlyServer) closeIdle(this.address);
    });
  }

  /** The server address and database this connection was made to (a failover moves what is behind it). */
  get address(): string {
    return `${this.host}:${this.port}/${this.database}`;
  }

  /** Closes the connection as a dropped one is closed: its pool hears the error and discards it. */
  dropAsReadOnly(): void {
    this.connection.stream.destroy(new ReadOnlyServerError());
  }

  /** The server said it takes no writes: a standby, or a primary made read-only. */
  get readOnlyServer(): boolean {
    return READ_ONLY_PARAMETERS.some((name) => this.reported.get(name) === 'on');
  }

  /**
   * pg-pool hands a connection out by setting `client.release`; what the holder calls is this
   * wrapper, which turns a plain release of a connection to a read-only server into a release
   * with an error: the pool then closes it instead of keeping it.
   */
  set release(release: (err?: Error | boolean) => void) {
    this.releaseToPool = release;
  }

  get release(): (err?: Error | boolean) => void {
    return (err) => this.releaseToPool?.(err || (this.readOnlyServer ? new ReadOnlyServerError() : undefined));
  }
}

/** The ParameterStatus names that say a server is read-only (what libpq's read-write check reads). */
const READ_ONLY_PARAMETERS = ['in_hot_standby', 'default_transaction_read_only'];

/**
 * A connection refused or dropped because its server is read-only. Shaped as the server's own
 * error for a write there (SQLSTATE 25006, read_only_sql_transaction), so every caller, Prisma's
 * driver adapter included, takes it for what it is: transient, the primary is being looked for.
 */
export class ReadOnlyServerError extends Error {
  readonly code = '25006';
  readonly severity = 'ERROR';

  constructor() {
    super(
      'the database server is read-only (a standby, or a primary during a failover): the connection is not used, a new one looks for the primary',
    );
    this.name = 'ReadOnlyServerError';
  }
}

/** The idle connections of every tracked pool, by address. */
const idleByAddress = new Map<string, Set<PrimaryClient>>();

function closeIdle(address: string): void {
  const idle = idleByAddress.get(address);
  if (!idle) return;
  idleByAddress.delete(address);
  for (const client of idle) client.dropAsReadOnly();
}

/**
 * Keeps count of which of the pool's connections are idle in it, so one that learns its server
 * went read-only can close the others (see PrimaryClient). A connection is idle from a clean
 * release until it is handed out again or removed.
 */
export function trackIdle(pool: Pool): Pool {
  const of = (client: unknown) => (client instanceof PrimaryClient ? client : undefined);
  const forget = (client: unknown) => {
    const c = of(client);
    if (c) idleByAddress.get(c.address)?.delete(c);
  };
  pool.on('release', (err, client) => {
    const c = of(client);
    if (!c || err) return;
    let idle = idleByAddress.get(c.address);
    if (!idle) idleByAddress.set(c.address, (idle = new Set()));
    idle.add(c);
  });
  pool.on('acquire', forget);
  pool.on('remove', forget);
  return pool;
}

/** Pool settings that keep a pool's connections on the primary (see PrimaryClient). */
export const PRIMARY_ONLY: Pick<PoolConfig, 'Client' | 'verify'> = {
  Client: PrimaryClient as unknown as PoolConfig['Client'],
  verify: (client: PoolClient, done: (err?: Error) => void) =>
    done((client as unknown as PrimaryClient).readOnlyServer ? new ReadOnlyServerError() : undefined),
};
