import type { Readable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';

/** A day file being read: its CSV bytes, its summary from the same snapshot, and `done(err?)` once the CSV is consumed. */
export interface CsvSnapshot<S> {
  csv: Readable;
  summary: Promise<S>;
  done: (err?: unknown) => Promise<void>;
}

/**
 * A connection in a REPEATABLE READ, READ ONLY transaction under `settings` (for it only), its
 * snapshot taken: whatever the file and its summary then read, they read the same data.
 */
export async function openSnapshot(pool: Pool, settings: Readonly<Record<string, string>>): Promise<PoolClient> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const entries = Object.entries(settings);
    // The transaction's snapshot is taken here, by its first statement: what follows shares it.
    await client.query(
      `SELECT ${entries.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
      entries.flat(),
    );
    return client;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw err;
  }
}

/** The CSV and summary read on `client` (openSnapshot), with the `done` that ends the transaction and frees the connection. */
export function csvSnapshot<S>(client: PoolClient, csv: Readable, summary: Promise<S>): CsvSnapshot<S> {
  summary.catch(() => undefined); // awaited by the caller after the upload; not unhandled when the upload fails first
  let finished = false;
  return {
    csv,
    summary,
    done: async (err?: unknown) => {
      if (finished) return;
      finished = true;
      if (err) {
        // The COPY may still be running, unread (the upload failed before reading it): a ROLLBACK
        // would queue behind it for ever. Dropping the connection ends both; the read-only
        // transaction has nothing to undo. (The chaos run found this: S3 stopped, exports hung.)
        csv.destroy();
        client.release(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      await summary.catch(() => undefined);
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    },
  };
}
