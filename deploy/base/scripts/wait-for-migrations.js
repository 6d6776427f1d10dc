'use strict';
/*
 * initContainer of every Deployment (deploy/base): waits until the database has every
 * migration that this image ships in prisma/migrations, as recorded in _prisma_migrations
 * by the migration Job (or by `prisma migrate deploy`: same table). It only reads; the Job
 * is the one thing that applies migrations. New pods of a release therefore never start on
 * an older schema, while the old pods keep serving until the Job has finished.
 *
 * Runs with the image's node_modules (NODE_PATH=/app/node_modules) and working directory
 * /app. Settings: DATABASE_URL (required), MIGRATIONS_DIR (prisma/migrations),
 * WAIT_TIMEOUT_SECONDS (600; then exit 1 so the pod shows the problem and is retried).
 */
const { readdirSync } = require('node:fs');
const { Client } = require('pg');

const log = (level, msg, extra = {}) =>
  process.stdout.write(JSON.stringify({ level, service: 'wait-for-migrations', msg, ...extra }) + '\n');

const url = process.env.DATABASE_URL;
const dir = process.env.MIGRATIONS_DIR || 'prisma/migrations';
const timeoutMs = Number(process.env.WAIT_TIMEOUT_SECONDS || 600) * 1000;
const intervalMs = 5000;

if (!url) {
  log('fatal', 'DATABASE_URL is not set');
  process.exit(1);
}

const expected = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

async function missingMigrations() {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    return expected.filter((name) => !applied.has(name));
  } catch (err) {
    if (err && err.code === '42P01') return expected; // no _prisma_migrations table yet
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main() {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let missing;
    try {
      missing = await missingMigrations();
    } catch (err) {
      missing = null;
      log('warn', 'database not reachable yet', { error: err instanceof Error ? err.message : String(err) });
    }
    if (missing && missing.length === 0) {
      log('info', 'schema is up to date', { migrations: expected.length });
      return 0;
    }
    if (Date.now() >= deadline) {
      log('fatal', 'gave up waiting for the migration Job', { missing, timeoutSeconds: timeoutMs / 1000 });
      return 1;
    }
    if (missing) log('info', 'waiting for the migration Job', { missing });
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

process.once('SIGTERM', () => process.exit(143));
main().then((code) => process.exit(code));
