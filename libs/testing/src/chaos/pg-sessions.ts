import { Client } from 'pg';

/**
 * pg_terminate_backend on every session of one database but this call's own: what a failover,
 * a proxy restart or an administrator does to a running service. Returns how many were cut.
 */
export async function terminateSessions(serverDatabaseUrl: string, database: string): Promise<number> {
  const client = new Client({ connectionString: serverDatabaseUrl });
  // A server stopped mid-call fails the query below; without a listener the same error would also crash the harness.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}
