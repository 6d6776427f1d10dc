import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../generated/prisma/client';

export { Prisma, PrismaClient };
export type TransactionClient = Prisma.TransactionClient;

/** The Prisma 7 client on the node-postgres driver adapter (no native query engine at run time). */
export function createPrismaClient(databaseUrl: string, poolSize = 10): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: 5000 });
  const client = new PrismaClient({ adapter });
  urls.set(client, databaseUrl);
  return client;
}

const urls = new WeakMap<PrismaClient, string>();

/** The database a client made by createPrismaClient talks to (for tools that need a plain pg pool beside it). */
export function databaseUrlOf(prisma: PrismaClient): string {
  const url = urls.get(prisma);
  if (!url) throw new Error('not a client made by createPrismaClient');
  return url;
}

/** True when `err` is a unique-constraint violation (Prisma P2002 or Postgres 23505), optionally on `target`. */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError) return err.code === 'P2002';
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** Fails start-up with a message naming DATABASE_URL (without its password) when the database cannot be reached. */
export async function assertDatabaseReachable(prisma: PrismaClient, databaseUrl: string): Promise<void> {
  try {
    await prisma.$queryRaw`SELECT 1`;
  } catch (err) {
    const url = new URL(databaseUrl);
    url.password = url.password ? '***' : '';
    const cause = err instanceof Error ? (err.message.split('\n').filter(Boolean).pop() ?? err.message) : String(err);
    throw new Error(`cannot reach the database at DATABASE_URL=${url.toString()}: ${cause.trim()}`);
  }
}
