import { Client } from 'pg';

/**
 * pg_terminate_backend on every session of one database but this call's own: what a failover,
 * a proxy restart or an administrator does to a running service. Returns how many were cut.
 */
export async function terminateSessions(serverDatabaseUrl: string, database: string): Promise<number> {
  const { rows } = await onServer(serverDatabaseUrl, (client) =>
    client.query<{ n: string }>(
      'SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    ),
  );
  return Number(rows[0].n);
}

/** The client sessions on one database, by application_name ("gateway 3, ledger:listen 1"); '' when none. */
export async function sessionsByApplication(serverDatabaseUrl: string, database: string): Promise<string> {
  return (
    (
      await onServer(serverDatabaseUrl, (client) =>
        client.query<{ s: string | null }>(
          `SELECT string_agg(application_name || ' ' || n, ', ' ORDER BY application_name) AS s
         FROM (SELECT application_name, count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1) a`,
          [database],
        ),
      )
    ).rows[0].s ?? ''
  );
}

/** How many transactions on one database have written and not yet ended (a transaction id assigned). */
export async function writingTransactions(serverDatabaseUrl: string, database: string): Promise<number> {
  return (
    await onServer(serverDatabaseUrl, (client) =>
      client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()',
        [database],
      ),
    )
  ).rows[0].n;
}

/** `work` on a connection of its own to the server, closed after. */
async function onServer<T>(serverDatabaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverDatabaseUrl });
  // A server stopped mid-call fails the query; without a listener the same error would also crash the harness.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
