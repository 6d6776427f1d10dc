import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '@pay/testing';

/**
 * Books the events a seed wrote straight into ledger_events, exactly as the ledger books them:
 * the books migration's own backfill (it leaves events already booked alone), so a seeded
 * history is as clean to the audit as one the ledger wrote.
 */
export async function bookHistory(prisma: { $executeRawUnsafe(query: string): PromiseLike<number> }): Promise<void> {
  const migration = readFileSync(join(MIGRATIONS_DIR, '20261203000000_books', 'migration.sql'), 'utf8');
  const backfill = migration.slice(migration.indexOf('-- The history so far'));
  for (const statement of backfill.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim()))
    await prisma.$executeRawUnsafe(statement);
}
