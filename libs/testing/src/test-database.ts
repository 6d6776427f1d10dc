import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { applyMigrations, dropDatabase, ensureDatabase } from '@pay/persistence';
import { repoRoot } from './repo-root';

/** The server the test databases live on; each run gets its own database on it. */
export const TEST_PG_SERVER = process.env.TEST_PG_SERVER ?? 'postgresql://postgres@127.0.0.1:5432';
export const MIGRATIONS_DIR = join(repoRoot(), 'prisma', 'migrations');

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Creates and migrates a fresh database (on `server`, e.g. a PrivatePostgres' url('')); returns its URL. */
export async function createTestDatabase(prefix = 'pay_test', server = TEST_PG_SERVER): Promise<string> {
  const url = `${server.replace(/\/$/, '')}/${uniqueName(prefix)}`;
  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS_DIR);
  return url;
}

export { dropDatabase };
